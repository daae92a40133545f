import type { User } from '@contract';
import { Link } from 'wouter';
import { Logo, LogoMark } from '@/components/Logo';
import { OrganizationSwitcher } from '@/features/organizations/components/OrganizationSwitcher';
import { useT } from '@/lib/i18n/catalogue';
import { shellMessages } from '@/lib/i18n/namespaces/shell';
import { navRoutes } from '../routes';
import { SidebarLink } from './SidebarLink';
import { UserFooter } from './UserFooter';

/** The app's navigation: a full sidebar from md up, an icon rail below. */
export function Sidebar({ user }: { user: User }) {
  const t = useT(shellMessages);
  return (
    <div className="w-16 shrink-0 border-r border-line bg-surface md:w-64">
      <aside className="sticky top-0 flex h-dvh flex-col">
        <div className="flex h-16 items-center border-b border-line px-3 max-md:justify-center md:px-5">
          <Link
            href="/"
            aria-label={t('home')}
            className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            <LogoMark className="md:hidden" />
            <Logo className="max-md:hidden" />
          </Link>
        </div>

        <div className="p-2 md:p-3">
          <OrganizationSwitcher />
        </div>

        <nav aria-label={t('mainNavigation')} className="flex-1 space-y-6 overflow-y-auto px-2 py-2 md:px-3">
          <ul className="space-y-1">
            {navRoutes('main').map((route) => (
              <li key={route.path}>
                <SidebarLink route={route} />
              </li>
            ))}
          </ul>
          <div>
            <p className="mb-2 hidden px-3 text-xs font-semibold uppercase tracking-wider text-fg-subtle md:block">
              {t('administration')}
            </p>
            <div aria-hidden className="mx-2 mb-2 border-t border-line md:hidden" />
            <ul className="space-y-1">
              {navRoutes('admin').map((route) => (
                <li key={route.path}>
                  <SidebarLink route={route} />
                </li>
              ))}
            </ul>
          </div>
        </nav>

        <div className="border-t border-line p-2 md:p-3">
          <UserFooter user={user} />
        </div>
      </aside>
    </div>
  );
}
