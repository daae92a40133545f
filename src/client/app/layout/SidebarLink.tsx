import { Link, useLocation } from 'wouter';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/cn';
import { isActive, type NavItem } from './navigation';

/** A sidebar link: icon and label, icon only (with a tooltip) below md. */
export function SidebarLink({ item }: { item: NavItem }) {
  const [location] = useLocation();
  const active = isActive(item, location);
  const Icon = item.icon;

  return (
    <Tooltip content={item.label} className="md:hidden">
      <Link
        href={item.href}
        aria-label={item.label}
        aria-current={active ? 'page' : undefined}
        className={cn(
          'flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors max-md:justify-center max-md:px-0',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500',
          active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
        )}
      >
        <Icon aria-hidden className={cn('size-5 shrink-0', active ? 'text-indigo-600' : 'text-slate-400')} />
        <span className="hidden truncate md:inline">{item.label}</span>
      </Link>
    </Tooltip>
  );
}
