import { Link, useLocation } from 'wouter';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n/catalogue';
import { shellMessages } from '@/lib/i18n/namespaces/shell';
import { NeedsRecipientBadge } from '@/features/mail-items/needs-recipient/NeedsRecipientBadge';
import { isCurrentNav, type NavEntry, type SignedInRoute } from '../routes';

/** A sidebar link: icon and label, icon only (with a tooltip) below md. Hovering it loads its screen. */
export function SidebarLink({ route }: { route: SignedInRoute & { nav: NavEntry } }) {
  const [location] = useLocation();
  const active = isCurrentNav(route, location);
  const t = useT(shellMessages);
  const label = t(route.nav.label);
  const { icon: Icon } = route.nav;
  const preload = () => void route.screen.preload().catch(() => undefined);

  return (
    <Tooltip content={label} className="md:hidden">
      <Link
        href={route.path}
        aria-label={label}
        aria-current={active ? 'page' : undefined}
        onPointerEnter={preload}
        onFocus={preload}
        className={cn(
          'relative flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors max-md:justify-center max-md:px-0',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500',
          active
            ? 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-700 dark:text-indigo-300'
            : 'text-fg-muted hover:bg-surface-muted hover:text-fg',
        )}
      >
        <Icon
          aria-hidden
          className={cn('size-5 shrink-0', active ? 'text-indigo-600 dark:text-indigo-400' : 'text-fg-faint')}
        />
        <span className="hidden truncate md:inline">{label}</span>
        {route.nav.badge === 'needs-recipient' && <NeedsRecipientBadge />}
      </Link>
    </Tooltip>
  );
}
