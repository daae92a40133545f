import type { MailItemSummary, UpdateMailItemBody } from '@contract';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { openPrintView, printSlipsPath } from '@/lib/printing';
import { toastFailure } from '@/lib/useErrorToast';
import { useDeleteMailItem } from '../api/deleteMailItem';
import { useUpdateMailItem } from '../api/updateMailItem';
import { recipientFullName, typeLabel } from '../mailItemFormat';
import { DeliverDialog } from './DeliverDialog';
import { EditMailItemDialog } from './EditMailItemDialog';
import { PhotoDialog } from './PhotoDialog';

/** Spec §8: update failures read 'Update Failed' / 'Failed to update mail item'. */
function updateFailed(err: unknown) {
  toastFailure('Update Failed', err, 'Failed to update mail item');
}

/**
 * The row actions of a mail item (notify, deliver, edit, delete, full-size photo, pickup slip) and the dialogs
 * they open; the Mail Intake list and Pending Pickups share them.
 */
export function useMailItemActions(organizationId: string) {
  const update = useUpdateMailItem(organizationId);
  const remove = useDeleteMailItem(organizationId);
  const [delivering, setDelivering] = useState<MailItemSummary | null>(null);
  const [editing, setEditing] = useState<MailItemSummary | null>(null);
  const [deleting, setDeleting] = useState<MailItemSummary | null>(null);
  const [viewing, setViewing] = useState<MailItemSummary | null>(null);

  const notify = (item: MailItemSummary) =>
    update.mutate(
      { id: item.id, body: { status: 'notified' } },
      {
        onSuccess: () =>
          toast({ title: 'Marked as notified', description: `${recipientFullName(item)} has been notified.` }),
        onError: updateFailed,
      },
    );

  const deliver = (item: MailItemSummary, collectorName: string) =>
    update.mutate(
      { id: item.id, body: { status: 'delivered', collectorName } },
      {
        onSuccess: () => {
          setDelivering(null);
          toast({ title: 'Marked as delivered', description: `${typeLabel(item.type)} handed to ${collectorName}.` });
        },
        onError: updateFailed,
      },
    );

  const save = (item: MailItemSummary, body: UpdateMailItemBody) =>
    update.mutate(
      { id: item.id, body },
      {
        onSuccess: () => {
          setEditing(null);
          toast({ title: 'Mail item updated', description: 'Your changes have been saved.' });
        },
        onError: updateFailed,
      },
    );

  const confirmDelete = (item: MailItemSummary) =>
    remove.mutate(item.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: 'Mail item deleted', description: `${typeLabel(item.type)} for ${recipientFullName(item)}.` });
      },
      onError: (err) => toastFailure('Error deleting mail item', err, err instanceof Error ? err.message : undefined),
    });

  /** True while this item's status change or edit is being saved. */
  const isUpdating = (item: MailItemSummary) => update.isPending && update.variables?.id === item.id;

  const dialogs = (
    <>
      <DeliverDialog
        item={delivering}
        onOpenChange={(open) => !open && setDelivering(null)}
        pending={update.isPending}
        onConfirm={(collectorName) => delivering && deliver(delivering, collectorName)}
      />
      <EditMailItemDialog
        organizationId={organizationId}
        item={editing}
        onOpenChange={(open) => !open && setEditing(null)}
        pending={update.isPending}
        onSave={(body) => editing && save(editing, body)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete mail item"
        description="Are you sure you want to delete this mail item?"
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        onConfirm={() => deleting && confirmDelete(deleting)}
      />
      <PhotoDialog item={viewing} onOpenChange={(open) => !open && setViewing(null)} />
    </>
  );

  /** The item's pickup slip, in a print view of its own tab. */
  const printSlips = (items: readonly Pick<MailItemSummary, 'id'>[]) =>
    openPrintView(
      printSlipsPath(
        organizationId,
        items.map((item) => item.id),
      ),
    );

  return {
    notify,
    printSlips,
    startDelivery: setDelivering,
    startEdit: setEditing,
    startDelete: setDeleting,
    viewPhoto: setViewing,
    isUpdating,
    dialogs,
  };
}
