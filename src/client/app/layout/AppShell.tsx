import type { User } from '@contract';
import type { ReactNode } from 'react';
import { PlanBanner } from '@/features/billing/components/PlanBanner';
import { OutboxStatus } from '@/features/mail-items/offline/OutboxStatus';
import { useT } from '@/lib/i18n/catalogue';
import { shellMessages } from '@/lib/i18n/namespaces/shell';
import { Sidebar } from './Sidebar';

export function AppShell({ user, children }: { user: User; children: ReactNode }) {
  const t = useT(shellMessages);
  return (
    <div className="flex min-h-dvh">
      {/* the first Tab stop: past the sidebar's links straight to the screen */}
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-lg focus:bg-surface focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-indigo-700 focus:shadow-lg focus:ring-2 focus:ring-indigo-500 dark:focus:text-indigo-300"
      >
        {t('skipToContent')}
      </a>
      <Sidebar user={user} />
      <main id="main-content" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
        <OutboxStatus />
        <PlanBanner />
        <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 md:px-8 md:py-8">{children}</div>
      </main>
    </div>
  );
}
