import type { NeedsRecipientItem } from '@contract';
import { useId, type FormEvent } from 'react';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormActions } from '@/components/FormActions';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { useResolveRecipient } from '../api/needsRecipient';
import { typeLabel } from '../mailItemFormat';
import { keepDialogOpenWhileListOpen } from '../components/RecipientCombobox';
import { RecipientField } from '../components/RecipientField';
import { useRecipientChoice } from '../components/useRecipientChoice';

function ResolveForm({
  organizationId,
  item,
  onDone,
}: {
  organizationId: string;
  item: NeedsRecipientItem;
  onDone: () => void;
}) {
  const id = useId();
  const choice = useRecipientChoice(null);
  const resolve = useResolveRecipient(organizationId);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (resolve.isPending) return;
    const recipient = choice.recipient;
    if (!recipient) {
      choice.setError(choice.text.trim() ? 'Choose a recipient from the list' : 'Choose a recipient');
      document.getElementById(id)?.focus();
      return;
    }
    resolve.mutate(
      { id: item.id, recipientId: recipient.id },
      {
        onSuccess: () => {
          toast({
            title: 'Recipient assigned',
            description: `${recipient.firstName} ${recipient.lastName} is being notified. The item is now in Pending Pickups.`,
          });
          onDone();
        },
        onError: (err) =>
          toast({
            title: 'Error',
            description: serverMessage(err, 'Failed to assign the recipient'),
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {item.thumbnailUrl && (
        <img
          src={item.thumbnailUrl}
          alt={`Photo of the ${typeLabel(item.type).toLowerCase()}`}
          className="max-h-48 w-auto rounded-md border border-line object-contain"
        />
      )}
      <RecipientField
        id={id}
        organizationId={organizationId}
        {...choice.field}
        onConfirm={() => submit()}
        hint="Type a few letters of the name, unit or department; Enter picks the first match."
      />
      <FormActions
        pending={resolve.isPending}
        onCancel={onDone}
        submitLabel="Assign and notify"
        pendingLabel="Assigning…"
      />
    </form>
  );
}

/** Picks the recipient of an item logged without one; it then joins the normal flow (decision 041). */
export function ResolveRecipientDialog({
  organizationId,
  item,
  onOpenChange,
}: {
  organizationId: string;
  item: NeedsRecipientItem | null;
  onOpenChange: (open: boolean) => void;
}) {
  const what = item ? [typeLabel(item.type), item.trackingNumber].filter(Boolean).join(' ') : '';
  return (
    <Dialog open={item !== null} onOpenChange={onOpenChange}>
      {item && (
        <DialogContent
          title="Choose the recipient"
          description={`${what}: they are notified as soon as you assign it.`}
          onEscapeKeyDown={keepDialogOpenWhileListOpen}
        >
          <ResolveForm key={item.id} organizationId={organizationId} item={item} onDone={() => onOpenChange(false)} />
        </DialogContent>
      )}
    </Dialog>
  );
}
