import type { MailItem, MailItemSummary, PickupLookup, UpdateMailItemBody } from '@contract';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/use-toast';
import { openPrintView, printSlipsPath } from '@/lib/printing';
import { toastFailure } from '@/lib/useErrorToast';
import { useDeleteMailItem } from '../api/deleteMailItem';
import { lookupByRecipient } from '../api/handOver';
import { conflictOf, useUpdateMailItem } from '../api/updateMailItem';
import type { SeenItem } from '../conflict';
import { recipientFullName, typeLabel } from '../mailItemFormat';
import { ConflictDialog, type Conflict } from './ConflictDialog';
import { HandOverDialog } from '../handover/HandOverDialog';
import { EditMailItemDialog } from './EditMailItemDialog';
import { PhotoDialog } from './PhotoDialog';

/** The toast's words for a change that went through. */
function doneDescription(done: string, item: SeenItem) {
  if (done === 'Marked as notified') return `${recipientFullName(item)} has been notified.`;
  return 'Your changes have been saved.';
}

/** The hand-over of an item whose recipient is gone (deleted): nobody's list to check. */
const NO_RECIPIENT: PickupLookup['recipient'] = {
  id: '',
  firstName: '',
  lastName: '',
  email: null,
  unit: null,
  department: null,
  isActive: true,
  proxies: [],
};

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
  const [editing, setEditing] = useState<MailItemSummary | null>(null);
  const [deleting, setDeleting] = useState<MailItemSummary | null>(null);
  const [viewing, setViewing] = useState<MailItemSummary | null>(null);
  const [handingOver, setHandingOver] = useState<{ lookup: PickupLookup; itemId: string } | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  const [conflict, setConflict] = useState<(Conflict & { done: string }) | null>(null);

  /**
   * Every change names the revision the clerk saw. Refused because someone else changed the item
   * meanwhile: the conflict dialog shows what changed and lets the clerk apply theirs again or
   * keep the other; `done` is the toast of a change that went through.
   */
  const change = (seen: SeenItem, body: UpdateMailItemBody, done: string, onSaved?: () => void) =>
    update.mutate(
      { id: seen.id, body, revision: seen.revision },
      {
        onSuccess: () => {
          onSaved?.();
          setConflict(null);
          toast({ title: done, description: doneDescription(done, seen) });
        },
        onError: (err) => {
          const current = conflictOf(err);
          if (current) {
            onSaved?.(); // its dialog closes: the conflict dialog takes over
            setConflict({ seen, current, body, done });
          } else updateFailed(err);
        },
      },
    );
  /**
   * "Delivered" (the row's button, the menu) opens the one hand-over (decision 053): this item
   * ticked, the recipient's other waiting items offered, the collector, how identified and the
   * proof the organization asks for. No other way marks an item delivered.
   */
  const startDelivery = async (item: MailItemSummary) => {
    if (!item.recipientId) {
      // Its recipient is gone: the item alone, to whoever collects it.
      setHandingOver({ lookup: { recipient: NO_RECIPIENT, items: [item] }, itemId: item.id });
      return;
    }
    setOpening(item.id);
    try {
      const lookup = await lookupByRecipient(organizationId, item.recipientId);
      if (lookup.items.some((i) => i.id === item.id)) setHandingOver({ lookup, itemId: item.id });
      else toast({ title: 'Already handed over', description: 'Refresh to see who collected it.' });
    } catch (err) {
      toastFailure('Hand-over could not start', err, 'The recipient’s items could not be loaded. Try again.');
    } finally {
      setOpening(null);
    }
  };

  const notify = (item: MailItemSummary) => change(item, { status: 'notified' }, 'Marked as notified');

  /** The edit dialog's change, made from the full item it loaded (its revision). */
  const save = (item: MailItem, body: UpdateMailItemBody) =>
    change(item, body, 'Mail item updated', () => setEditing(null));

  const confirmDelete = (item: MailItemSummary) =>
    remove.mutate(item.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: 'Mail item deleted', description: `${typeLabel(item.type)} for ${recipientFullName(item)}.` });
      },
      onError: (err) => toastFailure('Error deleting mail item', err, err instanceof Error ? err.message : undefined),
    });

  /** True while this item's status change or edit is being saved. */
  const isUpdating = (item: MailItemSummary) =>
    (update.isPending && update.variables?.id === item.id) || opening === item.id;

  const dialogs = (
    <>
      <HandOverDialog
        organizationId={organizationId}
        lookup={handingOver?.lookup ?? null}
        startWith={handingOver ? { itemId: handingOver.itemId, identifiedBy: 'id_checked' } : undefined}
        onOpenChange={(open) => !open && setHandingOver(null)}
        onDone={() => setHandingOver(null)}
      />
      <EditMailItemDialog
        organizationId={organizationId}
        item={editing}
        onOpenChange={(open) => !open && setEditing(null)}
        pending={update.isPending}
        onSave={(body, loaded) => save(loaded, body)}
      />
      <ConflictDialog
        conflict={conflict}
        pending={update.isPending}
        onApplyMine={(c) => change(c.current, c.body, conflict?.done ?? 'Mail item updated')}
        onKeepTheirs={() => setConflict(null)}
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
    startDelivery: (item: MailItemSummary) => void startDelivery(item),
    startEdit: setEditing,
    startDelete: setDeleting,
    viewPhoto: setViewing,
    isUpdating,
    dialogs,
  };
}
