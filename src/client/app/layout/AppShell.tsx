import type { User } from '@contract';
import type { ReactNode } from 'react';
import { PlanBanner } from '@/features/billing/components/PlanBanner';
import { Sidebar } from './Sidebar';

export function AppShell({ user, children }: { user: User; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh">
      <Sidebar user={user} />
      <main className="min-w-0 flex-1">
        <PlanBanner />
        <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 md:px-8 md:py-8">{children}</div>
      </main>
    </div>
  );
}
