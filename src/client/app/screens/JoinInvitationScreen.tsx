import type { User } from '@contract';
import { Redirect } from 'wouter';
import { Logo } from '@/components/Logo';
import { useInvitationToken } from '@/features/auth/hooks/useInvitationToken';
import { JoinInvitation } from '@/features/team/components/JoinInvitation';
import { UserFooter } from '../layout/UserFooter';

/**
 * A signed-in visit to /auth, /login or /register: with an invitation token it offers to join the
 * invitation's organization; without one it goes to / (spec §2).
 */
export function JoinInvitationScreen({ user }: { user: User }) {
  const token = useInvitationToken();
  if (!token) return <Redirect to="/" replace />;

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
      <main className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16">
        <div className="w-full max-w-md">
          <JoinInvitation token={token} user={user} />
        </div>
      </main>
    </div>
  );
}
