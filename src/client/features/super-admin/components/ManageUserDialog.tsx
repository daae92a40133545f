import { SUPER_ADMIN_MESSAGES, type SuperAdminUser } from '@contract';
import { AlertTriangle } from 'lucide-react';
import { useState } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { displayName, formatLongDate } from '@/lib/format';
import { toastFailure } from '@/lib/useErrorToast';
import { useUpdatePlatformUser } from '../api/platform';

/** Manage a user (spec §2): the 'Grant Super Admin Access' checkbox, saved when it changes. */
export function ManageUserDialog({
  user,
  isSelf,
  onClose,
}: {
  user: SuperAdminUser;
  isSelf: boolean;
  onClose: () => void;
}) {
  const [current, setCurrent] = useState(user);
  const update = useUpdatePlatformUser();
  const name = displayName({ ...current, username: current.username ?? current.email });

  // The box follows the click at once and goes back if the server refuses.
  const toggle = (isSuperAdmin: boolean) => {
    const before = current;
    setCurrent({ ...current, isSuperAdmin });
    update.mutate(
      { id: user.id, change: { isSuperAdmin } },
      {
        onSuccess: (updated) => {
          setCurrent(updated);
          toast({ title: SUPER_ADMIN_MESSAGES.userUpdated });
        },
        onError: (err) => {
          setCurrent(before);
          toastFailure(SUPER_ADMIN_MESSAGES.userUpdateFailed, err);
        },
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={`Manage ${name}`} description={current.email}>
        <dl className="mb-5 divide-y divide-line-subtle rounded-lg border border-line text-sm">
          <div className="flex justify-between gap-4 px-4 py-2.5">
            <dt className="text-fg-subtle">Created</dt>
            <dd className="font-medium text-fg">{formatLongDate(current.createdAt)}</dd>
          </div>
          <div className="flex justify-between gap-4 px-4 py-2.5">
            <dt className="text-fg-subtle">Organizations</dt>
            <dd className="text-right font-medium text-fg">
              {current.organizations.map((o) => o.name).join(', ') || 'None'}
            </dd>
          </div>
        </dl>
        <label className="flex items-start gap-3 rounded-lg border border-line p-4">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-indigo-600"
            checked={current.isSuperAdmin}
            disabled={update.isPending || (isSelf && current.isSuperAdmin)}
            onChange={(e) => toggle(e.target.checked)}
          />
          <span>
            <span className="block text-sm font-medium text-fg">Grant Super Admin Access</span>
            <span className="block text-xs text-fg-subtle">
              {isSelf && current.isSuperAdmin
                ? 'You cannot revoke your own access; another super admin can.'
                : 'Lets this user see and change every organization and user of the platform.'}
            </span>
          </span>
        </label>
        {current.isSuperAdmin && (
          <p
            role="note"
            className="mt-4 flex items-start gap-2 rounded-lg bg-amber-50 dark:bg-amber-950/40 p-3 text-sm text-amber-800 dark:text-amber-300"
          >
            <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
            This user has full system access and can manage all organizations and users.
          </p>
        )}
      </DialogContent>
    </Dialog>
  );
}
