import type { User } from '@contract';
import { LogOut, ShieldCheck } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { Tooltip } from '@/components/ui/tooltip';
import { useLogout } from '@/features/auth/api/logout';
import { cn } from '@/lib/cn';
import { displayName, initials } from '@/lib/format';
import { useT } from '@/lib/i18n/catalogue';
import { shellMessages } from '@/lib/i18n/namespaces/shell';

interface UserFooterProps {
  user: User;
  /** In a top bar: always one row, the name shown from sm up. In the sidebar rail it stacks below md. */
  inline?: boolean;
}

/**
 * The way into the Super Admin console, for super admins only: labelled 'Super Admin' wherever
 * there is room, an icon with a tooltip on the sidebar's icon rail and in a phone's top bar.
 */
function SuperAdminLink({ inline }: { inline: boolean }) {
  const t = useT(shellMessages);
  const [location] = useLocation();
  const active = location === '/super-admin';
  return (
    <Tooltip
      content={t('superAdmin')}
      side={inline ? 'bottom' : 'right'}
      className={inline ? 'sm:hidden' : 'md:hidden'}
    >
      <Link
        href="/super-admin"
        aria-current={active ? 'page' : undefined}
        className={cn(
          'flex h-9 shrink-0 items-center gap-2 rounded-lg text-sm font-medium transition-colors',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500',
          active
            ? 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-700 dark:text-indigo-300'
            : 'text-indigo-600 dark:text-indigo-400 hover:bg-indigo-50 dark:hover:bg-indigo-950/40 hover:text-indigo-700 dark:hover:text-indigo-300',
          inline
            ? 'px-2.5 max-sm:w-9 max-sm:justify-center max-sm:px-0'
            : 'px-3 max-md:w-9 max-md:justify-center max-md:px-0',
        )}
      >
        <ShieldCheck aria-hidden className="size-4 shrink-0" />
        <span className={cn('whitespace-nowrap', inline ? 'max-sm:sr-only' : 'max-md:sr-only')}>{t('superAdmin')}</span>
      </Link>
    </Tooltip>
  );
}

/** The signed-in person (initials, name, email), the Super Admin console for super admins, and Logout. */
export function UserFooter({ user, inline = false }: UserFooterProps) {
  const t = useT(shellMessages);
  const logout = useLogout();
  const name = displayName(user);

  const person = (
    <>
      <Tooltip content={`${name} · ${user.email}`} className={inline ? 'sm:hidden' : 'md:hidden'}>
        <span
          role="img"
          aria-label={name}
          className="flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-100 dark:bg-indigo-900/40 text-sm font-semibold text-indigo-700 dark:text-indigo-300"
        >
          {initials(user)}
        </span>
      </Tooltip>
      <div className={cn('hidden min-w-0 flex-1', inline ? 'sm:block' : 'md:block')}>
        <p className="truncate text-sm font-medium text-fg">{name}</p>
        <p className="truncate text-xs text-fg-subtle">{user.email}</p>
      </div>
    </>
  );
  const logoutButton = (
    <Tooltip content={t('logout')} side="top">
      <button
        type="button"
        aria-label={t('logout')}
        onClick={() => logout.mutate()}
        disabled={logout.isPending}
        className="flex size-9 shrink-0 items-center justify-center rounded-lg text-fg-subtle transition-colors hover:bg-surface-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-60"
      >
        <LogOut aria-hidden className="size-4" />
      </button>
    </Tooltip>
  );

  if (inline) {
    return (
      <div className="flex items-center gap-3">
        {person}
        {user.isSuperAdmin && <SuperAdminLink inline />}
        {logoutButton}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2 max-md:items-center">
      {user.isSuperAdmin && <SuperAdminLink inline={false} />}
      <div className="flex items-center gap-3 max-md:flex-col">
        {person}
        {logoutButton}
      </div>
    </div>
  );
}
