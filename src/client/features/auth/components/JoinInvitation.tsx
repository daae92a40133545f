import { INVITATION_MESSAGES, type User } from '@contract';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CloudOff, MailCheck, UserRoundX } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { StatusPanel } from '@/components/StatusPanel';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError, serverMessage, storeSelectedOrganizationId } from '@/lib/api';
import { organizationsQueryKey } from '@/lib/resources/keys';
import { organizationsQuery } from '@/lib/resources/organizations';
import { useAcceptInvitation } from '../api/acceptInvitation';
import { useLogout } from '../api/logout';
import { useVerifyInvitation } from '../api/useVerifyInvitation';

const refusals: Record<string, string> = {
  seat_limit: INVITATION_MESSAGES.seatLimit,
  trial_expired: INVITATION_MESSAGES.trialExpired,
  email_mismatch: INVITATION_MESSAGES.emailMismatch,
  already_member: 'You are already a member of this organization.',
};

function refusalOf(err: unknown): string {
  if (err instanceof ApiError && err.reply?.code && refusals[err.reply.code]) return refusals[err.reply.code]!;
  return serverMessage(err, INVITATION_MESSAGES.joinFailed);
}

/** A signed-in person opened an invitation link: "Join {organization}" calls accept. */
export function JoinInvitation({ token, user }: { token: string; user: User }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const verify = useVerifyInvitation(token);
  const accept = useAcceptInvitation();
  const logout = useLogout();
  const invitation = verify.data;

  const dashboard = (
    <Button asChild variant="outline">
      <Link href="/">Go to dashboard</Link>
    </Button>
  );

  if (verify.isPending) {
    return (
      <div className="flex items-center justify-center gap-3 py-12 text-sm text-fg-subtle">
        <Spinner className="size-5" label="Verifying invitation" /> Verifying your invitation…
      </div>
    );
  }
  if (verify.isError) {
    return (
      <StatusPanel
        icon={CloudOff}
        tone="warning"
        title={INVITATION_MESSAGES.verifyFailed}
        actions={
          <>
            <Button onClick={() => void verify.refetch()}>Try again</Button>
            {dashboard}
          </>
        }
      >
        <p>Check your connection and try again.</p>
      </StatusPanel>
    );
  }
  if (!invitation) {
    return (
      <StatusPanel icon={AlertTriangle} tone="warning" title="This invitation is no longer valid" actions={dashboard}>
        <p>The invitation link is invalid or expired. Ask an admin of the organization to send you a new one.</p>
      </StatusPanel>
    );
  }

  const name = invitation.organizationName;
  const article = invitation.role === 'admin' ? 'an admin' : 'a member';

  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
    return (
      <StatusPanel
        icon={UserRoundX}
        tone="warning"
        title={`Join ${name}`}
        actions={
          <>
            <Button onClick={() => logout.mutate()} disabled={logout.isPending}>
              Sign out and use another account
            </Button>
            {dashboard}
          </>
        }
      >
        <p>
          This invitation was sent to <strong className="font-medium text-fg">{invitation.email}</strong>, but you are
          signed in as <strong className="font-medium text-fg">{user.email}</strong>.
        </p>
        <p>Sign out, then open the invitation link again to join with the invited address.</p>
      </StatusPanel>
    );
  }

  const join = () =>
    accept.mutate(token, {
      onSuccess: (joined) => {
        storeSelectedOrganizationId(joined.organizationId);
        // the shell reloads the list, so it opens in the organization just joined
        queryClient.removeQueries({ queryKey: organizationsQueryKey });
        toast({
          title: `Welcome to ${joined.organizationName}!`,
          description: `You have joined ${joined.organizationName} as ${joined.role === 'admin' ? 'an admin' : 'a member'}.`,
        });
        navigate('/', { replace: true });
      },
      onError: async (err) => {
        // Already in it: open it instead of refusing (the list knows it by name).
        if (err instanceof ApiError && err.reply?.code === 'already_member') {
          const mine = await queryClient.fetchQuery(organizationsQuery).catch(() => []);
          const found = mine.filter((org) => org.name === name);
          if (found.length === 1) {
            storeSelectedOrganizationId(found[0]!.id);
            toast({ title: `You are already a member of ${name}`, description: 'Here it is.' });
            navigate('/', { replace: true });
            return;
          }
        }
        toast({ title: `Could not join ${name}`, description: refusalOf(err), variant: 'destructive' });
      },
    });

  return (
    <StatusPanel
      icon={MailCheck}
      tone="info"
      title={`Join ${name}`}
      actions={
        <>
          <Button onClick={join} disabled={accept.isPending}>
            {accept.isPending ? 'Joining…' : `Join ${name}`}
          </Button>
          {dashboard}
        </>
      }
    >
      <p>
        You have been invited to join <strong className="font-medium text-fg">{name}</strong> as {article}.
      </p>
      <p>
        You are signed in as <strong className="font-medium text-fg">{user.email}</strong>.
      </p>
      {accept.isError && (
        <p
          role="alert"
          className="rounded-lg bg-red-50 dark:bg-red-950/40 px-3 py-2 text-left text-red-700 dark:text-red-300"
        >
          {refusalOf(accept.error)}
        </p>
      )}
    </StatusPanel>
  );
}
