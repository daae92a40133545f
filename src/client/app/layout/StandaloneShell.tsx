import type { User } from '@contract';
import type { ReactNode } from 'react';
import { Logo } from '@/components/Logo';
import { UserFooter } from './UserFooter';

/**
 * The page of a signed-in user outside any organization (onboarding, joining by invitation): the
 * logo and the account in a top bar, the content centred below, no sidebar.
 */
export function StandaloneShell({ user, children }: { user: User; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-4 px-4 sm:px-6">
          <Logo />
          <div className="min-w-0 sm:w-64">
            <UserFooter user={user} inline />
          </div>
        </div>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16">{children}</main>
    </div>
  );
}
