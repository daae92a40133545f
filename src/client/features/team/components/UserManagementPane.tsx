import type { MyOrganization } from '@contract';
import { Lock, UserPlus } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { WriteBlockNotice } from '@/components/WriteBlockNotice';
import { useWriteBlock } from '@/lib/writeBlock';
import { blockedReason } from '@/lib/writeBlockText';
import { useMembers } from '@/lib/resources/organizations';
import { displayName } from '@/lib/format';
import { useInvitations } from '../api/invitations';
import { ActivityCard } from './ActivityCard';
import { InvitationsCard } from './InvitationsCard';
import { InviteUserDialog } from './InviteUserDialog';
import { MembersCard } from './MembersCard';
import { SeatSummary, seatsAvailable } from './SeatSummary';

/** Settings > User Management (admins): seats, members, invitations and the activity log. */
export function UserManagementPane({
  organization,
  currentUserId,
}: {
  organization: MyOrganization;
  currentUserId: string;
}) {
  const members = useMembers(organization.id);
  const invitations = useInvitations(organization.id, organization.role === 'admin');
  const [inviting, setInviting] = useState(false);
  const pending = invitations.data?.filter((i) => i.status === 'pending').length;
  const names = useMemo(
    () => new Map((members.data ?? []).map((m) => [m.userId, displayName(m.user)])),
    [members.data],
  );
  const nameOf = useCallback((userId: string) => names.get(userId), [names]);
  // After the trial (or with a lapsed subscription) the server refuses invitations with 402: say so here.
  const block = useWriteBlock();

  return (
    <div className="space-y-6">
      {block && (
        <WriteBlockNotice
          id="invite-write-block"
          block={block}
          area="members"
          isAdmin={organization.role === 'admin'}
        />
      )}
      <SeatSummary maxUsers={organization.maxUsers} used={members.data?.length} pendingInvitations={pending} />
      <MembersCard
        organizationId={organization.id}
        organizationName={organization.name}
        currentUserId={currentUserId}
        members={members.data}
        isPending={members.isPending}
        isError={members.isError}
        onRetry={() => void members.refetch()}
        inviteButton={
          <Button
            onClick={() => setInviting(true)}
            className="self-start"
            disabled={block !== null}
            title={block ? blockedReason(block) : undefined}
            aria-describedby={block ? 'invite-write-block' : undefined}
          >
            {block ? <Lock aria-hidden /> : <UserPlus aria-hidden />} Invite user
          </Button>
        }
      />
      <InvitationsCard
        organizationId={organization.id}
        invitations={invitations.data}
        isPending={invitations.isPending}
        isError={invitations.isError}
        onRetry={() => void invitations.refetch()}
        onInvite={block ? undefined : () => setInviting(true)}
      />
      <ActivityCard organizationId={organization.id} nameOf={nameOf} />
      <InviteUserDialog
        organizationId={organization.id}
        organizationName={organization.name}
        seatsFull={members.data !== undefined && seatsAvailable(organization.maxUsers, members.data.length) === 0}
        block={block}
        open={inviting}
        onOpenChange={setInviting}
      />
    </div>
  );
}
