import type { Member, Role } from '@contract';
import { UserMinus, Users } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { CardTableOrList } from '@/components/ListCard';
import { ListState } from '@/components/ListState';
import { DANGER_ACTION_CLASS } from '@/components/RowIconButton';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ListSkeleton } from '@/components/ui/skeleton';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { displayName, formatDate, initials } from '@/lib/format';
import { toastFailure } from '@/lib/useErrorToast';
import { useRemoveMember } from '../api/removeMember';
import { useUpdateMemberRole } from '../api/updateMemberRole';
import { RoleSelect } from './RoleSelect';

interface MembersCardProps {
  organizationId: string;
  organizationName: string;
  currentUserId: string;
  members: Member[] | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
  /** The "Invite user" button, placed in the card's header. */
  inviteButton: ReactNode;
}

function Avatar({ member }: { member: Member }) {
  return (
    <span
      aria-hidden
      className="flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-50 dark:bg-indigo-950/40 text-sm font-semibold text-indigo-700 dark:text-indigo-300"
    >
      {initials(member.user)}
    </span>
  );
}

function Person({ member, isYou, joined }: { member: Member; isYou: boolean; joined?: boolean }) {
  const name = displayName(member.user);
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar member={member} />
      <div className="min-w-0">
        <p className="truncate font-medium text-fg" title={name}>
          {name}
          {isYou && <span className="font-normal text-fg-subtle"> (you)</span>}
        </p>
        {/* without a name the email is already the first line */}
        {name !== member.user.email && (
          <p className="truncate text-sm text-fg-subtle" title={member.user.email}>
            {member.user.email}
          </p>
        )}
        {joined && <p className="text-xs text-fg-subtle">Joined {formatDate(member.createdAt)}</p>}
      </div>
    </div>
  );
}

/** Members with their role and joined date; admins change roles and remove anyone but themselves. */
export function MembersCard({
  organizationId,
  organizationName,
  currentUserId,
  members,
  isPending,
  isError,
  onRetry,
  inviteButton,
}: MembersCardProps) {
  const remove = useRemoveMember(organizationId);
  const changeRole = useUpdateMemberRole(organizationId);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [demotingSelf, setDemotingSelf] = useState<Member | null>(null);

  const applyRole = (member: Member, role: Role) =>
    changeRole.mutate(
      { userId: member.userId, role },
      {
        onSuccess: () =>
          toast({
            title: 'Role updated',
            description:
              member.userId === currentUserId
                ? `You are now a ${role} of ${organizationName}.`
                : `${displayName(member.user)} is now ${role === 'admin' ? 'an admin' : 'a member'}.`,
          }),
        onError: (err) => toastFailure('Failed to change role', err),
      },
    );

  const onRoleChange = (member: Member, role: Role) => {
    if (role === member.role) return;
    // Demoting yourself takes the admin screens away at once: ask first.
    if (member.userId === currentUserId && role === 'member') setDemotingSelf(member);
    else applyRole(member, role);
  };

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.userId, {
      onSuccess: () => {
        toast({ title: 'User removed', description: `${displayName(removing.user)} no longer has access.` });
        setRemoving(null);
      },
      onError: (err) => {
        toastFailure('Failed to remove user', err);
        setRemoving(null);
      },
    });
  };

  const roleControl = (member: Member) => (
    <RoleSelect
      value={member.role}
      label={`Role of ${displayName(member.user)}`}
      disabled={changeRole.isPending && changeRole.variables?.userId === member.userId}
      onChange={(role) => onRoleChange(member, role)}
    />
  );

  const removeControl = (member: Member) =>
    member.userId === currentUserId ? (
      <span className="inline-flex h-8 items-center px-3 text-xs whitespace-nowrap text-fg-subtle">Cannot remove</span>
    ) : (
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Remove ${displayName(member.user)}`}
        className={DANGER_ACTION_CLASS}
        onClick={() => setRemoving(member)}
      >
        <UserMinus aria-hidden /> Remove
      </Button>
    );

  const rows = (list: Member[]) => (
    <CardTableOrList
      label="Members"
      head={
        <>
          <TableHead className="w-full pl-5 sm:pl-6">Name</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Joined</TableHead>
          <TableHead className="pr-5 text-right sm:pr-6">
            <span className="sr-only">Actions</span>
          </TableHead>
        </>
      }
      rows={list.map((member) => (
        <TableRow key={member.id}>
          <TableCell className="max-w-0 pl-5 sm:pl-6">
            <Person member={member} isYou={member.userId === currentUserId} />
          </TableCell>
          <TableCell>{roleControl(member)}</TableCell>
          <TableCell className="whitespace-nowrap text-fg-muted">{formatDate(member.createdAt)}</TableCell>
          <TableCell className="pr-5 text-right sm:pr-6">{removeControl(member)}</TableCell>
        </TableRow>
      ))}
      items={list.map((member) => (
        <li key={member.id} className="space-y-3 px-5 py-4">
          <Person member={member} isYou={member.userId === currentUserId} joined />
          <div className="flex items-center justify-between gap-2">
            {roleControl(member)}
            {removeControl(member)}
          </div>
        </li>
      ))}
    />
  );

  const body = (
    <ListState
      data={members}
      isPending={isPending}
      isError={isError}
      error={{
        icon: Users,
        title: 'The member list could not be loaded',
        onRetry,
        children: <p>Check your connection and try again.</p>,
      }}
      skeleton={
        <ListSkeleton
          label="Loading members"
          className="divide-y divide-line-subtle px-5 sm:px-6"
          rowClassName="gap-3 py-3"
          iconClassName="size-9 rounded-full"
          lineClassNames={['h-4 w-40', 'mt-1.5 h-3 w-56']}
          trailingClassName="h-8 w-28"
        />
      }
      // no empty state of its own: with no rows the table still shows its header
      isEmpty={() => false}
      empty={rows([])}
    >
      {rows}
    </ListState>
  );

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 space-y-0 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <CardTitle>Members</CardTitle>
          <CardDescription>People who can sign in to {organizationName}, and what they may do.</CardDescription>
        </div>
        {inviteButton}
      </CardHeader>
      <CardContent className="px-0 pb-2 sm:px-0 sm:pb-2">{body}</CardContent>

      <ConfirmDialog
        open={Boolean(removing)}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove user"
        description="Are you sure you want to remove this user from your organization?"
        confirmLabel="Remove user"
        pendingLabel="Removing…"
        pending={remove.isPending}
        onConfirm={confirmRemove}
      >
        {removing && (
          <p className="text-sm text-fg-muted">
            <strong className="font-medium text-fg">{displayName(removing.user)}</strong> ({removing.user.email}) will
            lose access to {organizationName} immediately. Their logged mail and history stay.
          </p>
        )}
      </ConfirmDialog>

      <ConfirmDialog
        open={Boolean(demotingSelf)}
        onOpenChange={(open) => !open && setDemotingSelf(null)}
        title="Give up admin rights?"
        description="You will no longer be able to manage users, billing or the organization's details."
        confirmLabel="Make me a member"
        onConfirm={() => {
          if (demotingSelf) applyRole(demotingSelf, 'member');
          setDemotingSelf(null);
        }}
      />
    </Card>
  );
}
