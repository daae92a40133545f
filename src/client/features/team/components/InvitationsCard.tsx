import type { Invitation } from '@contract';
import { MailPlus, RotateCw, X } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { ListCard } from '@/components/ListCard';
import { ListState } from '@/components/ListState';
import { Badge } from '@/components/ui/badge';
import { DANGER_ACTION_CLASS } from '@/components/RowIconButton';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { displayName, formatDate, humanize } from '@/lib/format';
import { toastFailure } from '@/lib/useErrorToast';
import { useResendInvitation, useRevokeInvitation } from '../api/invitations';

interface InvitationsCardProps {
  organizationId: string;
  invitations: Invitation[] | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
  /** Opens the invite dialog; left out while inviting is paused (the trial ended). */
  onInvite?: () => void;
}

function StatusBadge({ invitation }: { invitation: Invitation }) {
  return invitation.status === 'expired' ? (
    <Badge className="border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 text-red-700 dark:text-red-300">
      Expired
    </Badge>
  ) : (
    <Badge tone="yellow">Pending</Badge>
  );
}

/** Invitations not yet accepted: re-send (a new link and expiry) or revoke. */
export function InvitationsCard({
  organizationId,
  invitations,
  isPending,
  isError,
  onRetry,
  onInvite,
}: InvitationsCardProps) {
  const resend = useResendInvitation(organizationId);
  const revoke = useRevokeInvitation(organizationId);
  const [revoking, setRevoking] = useState<Invitation | null>(null);

  const onResend = (invitation: Invitation) =>
    resend.mutate(invitation.id, {
      onSuccess: () =>
        toast({ title: 'Invitation re-sent', description: `A new link was sent to ${invitation.email}.` }),
      onError: (err) => toastFailure('Failed to resend invitation', err),
    });

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast({ title: 'Invitation revoked', description: `The link sent to ${revoking.email} no longer works.` });
        setRevoking(null);
      },
      onError: (err) => {
        toastFailure('Failed to revoke invitation', err);
        setRevoking(null);
      },
    });
  };

  const actions = (invitation: Invitation) => {
    const busy = resend.isPending && resend.variables === invitation.id;
    return (
      <div className="-mx-2 flex shrink-0 gap-1 sm:mx-0 sm:justify-end">
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Resend invitation to ${invitation.email}`}
          disabled={busy}
          onClick={() => onResend(invitation)}
        >
          <RotateCw aria-hidden className={busy ? 'animate-spin' : undefined} /> Resend
        </Button>
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Revoke invitation to ${invitation.email}`}
          className={DANGER_ACTION_CLASS}
          onClick={() => setRevoking(invitation)}
        >
          <X aria-hidden /> Revoke
        </Button>
      </div>
    );
  };

  const body = (
    <ListState
      data={invitations}
      isPending={isPending}
      isError={isError}
      error={{ title: 'Pending invitations could not be loaded', onRetry, icon: MailPlus }}
      skeleton={
        <SkeletonRows
          label="Loading pending invitations"
          className="space-y-3 px-5 sm:px-6"
          row={() => <Skeleton className="h-10 w-full" />}
        />
      }
      empty={
        <EmptyState
          icon={MailPlus}
          title="No pending invitations"
          className="py-8"
          action={
            onInvite && (
              <Button variant="outline" size="sm" onClick={onInvite}>
                <MailPlus aria-hidden /> Invite user
              </Button>
            )
          }
        >
          Invite colleagues by email; they appear here until they accept.
        </EmptyState>
      }
    >
      {(invitations) => (
        <ul aria-label="Pending invitations" className="divide-y divide-line-subtle border-t border-line-subtle">
          {invitations.map((invitation) => (
            <li
              key={invitation.id}
              className="flex flex-col gap-2 px-5 py-3.5 sm:flex-row sm:items-center sm:justify-between sm:gap-4 sm:px-6"
            >
              <div className="min-w-0 space-y-1">
                <div className="flex min-w-0 flex-wrap items-center gap-2">
                  <p className="min-w-0 truncate font-medium text-fg" title={invitation.email}>
                    {invitation.email}
                  </p>
                  <Badge tone={invitation.role === 'admin' ? 'indigo' : 'neutral'}>{humanize(invitation.role)}</Badge>
                  <StatusBadge invitation={invitation} />
                </div>
                <p className="text-sm text-fg-subtle">
                  Sent {formatDate(invitation.createdAt)} · {invitation.status === 'expired' ? 'Expired' : 'Expires'}{' '}
                  {formatDate(invitation.expiresAt)}
                  {invitation.invitedBy && <> · by {displayName(invitation.invitedBy)}</>}
                </p>
              </div>
              {actions(invitation)}
            </li>
          ))}
        </ul>
      )}
    </ListState>
  );

  return (
    <ListCard
      title="Pending invitations"
      description="Links expire after 7 days. Resend one to send a fresh link."
      dialogs={
        <ConfirmDialog
          open={Boolean(revoking)}
          onOpenChange={(open) => !open && setRevoking(null)}
          title="Revoke invitation"
          description="The invitation link stops working. You can invite the person again later."
          confirmLabel="Revoke invitation"
          pendingLabel="Revoking…"
          pending={revoke.isPending}
          onConfirm={confirmRevoke}
        >
          {revoking && (
            <p className="text-sm text-fg-muted">
              Invitation to <strong className="font-medium text-fg">{revoking.email}</strong> as {revoking.role}.
            </p>
          )}
        </ConfirmDialog>
      }
    >
      {body}
    </ListCard>
  );
}
