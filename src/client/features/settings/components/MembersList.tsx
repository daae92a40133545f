import type { Member } from '@contract';
import { UserMinus } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useMembers } from '@/features/organizations/api/members';
import { useRemoveMember } from '@/features/organizations/api/removeMember';
import { displayName, humanize, initials } from '@/lib/format';
import { toastFailure } from '@/lib/useErrorToast';

interface MembersListProps {
  organizationId: string;
  currentUserId: string;
}

/** The organization's members; admins remove anyone but themselves, after confirming. */
export function MembersList({ organizationId, currentUserId }: MembersListProps) {
  const { data: members, isPending, isError } = useMembers(organizationId);
  const remove = useRemoveMember(organizationId);
  const [removing, setRemoving] = useState<Member | null>(null);

  const confirmRemove = () => {
    if (!removing) return;
    remove.mutate(removing.userId, {
      onSuccess: () => {
        toast({ title: 'User removed', description: `${displayName(removing.user)} no longer has access.` });
        setRemoving(null);
      },
      onError: (err) => toastFailure('Failed to remove user', err),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>
          People with access to this organization. Invitations arrive in an upcoming release.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="space-y-3">
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-12 w-full" />
            ))}
          </div>
        ) : isError && !members ? (
          <p className="text-sm text-red-600">The member list could not be loaded. It will retry shortly.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {members?.map((member) => (
              <li key={member.id} className="flex flex-wrap items-center gap-3 py-3">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-100 text-sm font-semibold text-slate-600">
                  {initials(member.user)}
                </span>
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-slate-900">
                    {displayName(member.user)}
                    {member.userId === currentUserId && <span className="font-normal text-slate-500"> (you)</span>}
                  </p>
                  <p className="truncate text-sm text-slate-500">{member.user.email}</p>
                </div>
                <Badge tone={member.role === 'admin' ? 'indigo' : 'neutral'}>{humanize(member.role)}</Badge>
                {member.userId === currentUserId ? (
                  <span className="w-24 text-right text-xs text-slate-400">Cannot remove</span>
                ) : (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove ${displayName(member.user)}`}
                    className="w-24 text-red-600 hover:bg-red-50 hover:text-red-700"
                    onClick={() => setRemoving(member)}
                  >
                    <UserMinus aria-hidden /> Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>

      <Dialog open={Boolean(removing)} onOpenChange={(open) => !open && setRemoving(null)}>
        <DialogContent
          title="Remove user"
          description="Are you sure you want to remove this user from your organization?"
        >
          {removing && (
            <p className="text-sm text-slate-600">
              {displayName(removing.user)} ({removing.user.email}) will lose access immediately.
            </p>
          )}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => setRemoving(null)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={confirmRemove} disabled={remove.isPending}>
              {remove.isPending ? 'Removing…' : 'Remove user'}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
