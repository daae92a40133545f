import type { User } from '@contract';
import type { ReactNode } from 'react';
import { Logo } from '@/components/Logo';
import { cn } from '@/lib/cn';
import { UserFooter } from './UserFooter';

/**
 * The page of a signed-in user outside any organization (onboarding, joining by invitation): the
 * logo and the account in a top bar, the content centred below, no sidebar.
 */
export function StandaloneShell({ user, wide = false, children }: { user: User; wide?: boolean; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-canvas">
      <header className="border-b border-line bg-surface">
        <div
          className={cn(
            'mx-auto flex h-16 items-center justify-between gap-4 px-4 sm:px-6',
            wide ? 'max-w-7xl' : 'max-w-5xl',
          )}
        >
          <Logo />
          {/* room for the 'Super Admin' link beside the name */}
          <div className={cn('min-w-0', user.isSuperAdmin ? 'sm:w-96' : 'sm:w-64')}>
            <UserFooter user={user} inline />
          </div>
        </div>
      </header>
      {wide ? (
        <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6">{children}</main>
      ) : (
        <main className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16">{children}</main>
      )}
    </div>
  );
}
