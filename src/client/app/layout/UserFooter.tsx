import type { User } from '@contract';
import { LogOut, ShieldCheck } from 'lucide-react';
import { Link } from 'wouter';
import { Tooltip } from '@/components/ui/tooltip';
import { useLogout } from '@/features/auth/api/logout';
import { cn } from '@/lib/cn';
import { displayName, initials } from '@/lib/format';

interface UserFooterProps {
  user: User;
  /** In a top bar: always one row, the name shown from sm up. In the sidebar rail it stacks below md. */
  inline?: boolean;
}

/** The signed-in person (initials, name, email), the Super Admin console for super admins, and Logout. */
export function UserFooter({ user, inline = false }: UserFooterProps) {
  const logout = useLogout();
  const name = displayName(user);

  return (
    <div className={cn('flex items-center gap-3', !inline && 'max-md:flex-col')}>
      <Tooltip content={`${name} · ${user.email}`} className={inline ? 'sm:hidden' : 'md:hidden'}>
        <span
          role="img"
          aria-label={name}
          className="flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700"
        >
          {initials(user)}
        </span>
      </Tooltip>
      <div className={cn('hidden min-w-0 flex-1', inline ? 'sm:block' : 'md:block')}>
        <p className="truncate text-sm font-medium text-slate-900">{name}</p>
        <p className="truncate text-xs text-slate-500">{user.email}</p>
      </div>
      {user.isSuperAdmin && (
        <Tooltip content="Super Admin" side="top">
          <Link
            href="/super-admin"
            aria-label="Super Admin"
            className="flex size-9 shrink-0 items-center justify-center rounded-lg text-indigo-600 transition-colors hover:bg-indigo-50 hover:text-indigo-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            <ShieldCheck aria-hidden className="size-4" />
          </Link>
        </Tooltip>
      )}
      <Tooltip content="Logout" side="top">
        <button
          type="button"
          aria-label="Logout"
          onClick={() => logout.mutate()}
          disabled={logout.isPending}
          className="flex size-9 shrink-0 items-center justify-center rounded-lg text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60"
        >
          <LogOut aria-hidden className="size-4" />
        </button>
      </Tooltip>
    </div>
  );
}
