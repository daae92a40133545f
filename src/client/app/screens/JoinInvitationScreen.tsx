import type { User } from '@contract';
import { Redirect } from 'wouter';
import { useInvitationToken } from '@/features/auth/hooks/useInvitationToken';
import { JoinInvitation } from '@/features/auth/components/JoinInvitation';
import { StandaloneShell } from '../layout/StandaloneShell';

/**
 * A signed-in visit to /auth, /login or /register: with an invitation token it offers to join the
 * invitation's organization; without one it goes to / (spec §2).
 */
export function JoinInvitationScreen({ user }: { user: User }) {
  const token = useInvitationToken();
  if (!token) return <Redirect to="/" replace />;

  return (
    <StandaloneShell user={user}>
      <div className="w-full max-w-md">
        <JoinInvitation token={token} user={user} />
      </div>
    </StandaloneShell>
  );
}
