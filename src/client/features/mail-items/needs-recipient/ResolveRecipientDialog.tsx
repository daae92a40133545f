import { ResolveRecipientBody, type NeedsRecipientItem } from '@contract';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormActions } from '@/components/FormActions';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { checkForm } from '@/lib/forms';
import { useResolveRecipient } from '../api/needsRecipient';
import { typeLabel } from '../mailItemFormat';
import { keepDialogOpenWhileListOpen, recipientLabel } from '../components/RecipientCombobox';
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
  const [pickerKey, setPickerKey] = useState(0);
  const offered = item.expectedBy.map((r) => ({ ...r, email: null, department: null }));
  const resolve = useResolveRecipient(organizationId);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (resolve.isPending) return;
    const recipient = choice.recipient;
    const checked = checkForm(ResolveRecipientBody, { recipientId: recipient?.id, recipientSource: choice.source });
    if (!recipient || checked.errors) {
      // A name typed but not picked: the list is where a recipient comes from.
      choice.setError(choice.text.trim() ? 'Choose a recipient from the list' : checked.errors?.recipientId);
      document.getElementById(id)?.focus();
      return;
    }
    resolve.mutate(
      { id: item.id, ...checked.data },
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
      {offered.length > 0 && (
        // Decision 047: those who expect its number are offered, none chosen by itself.
        <div role="status" data-testid="expected-offer" className="space-y-1.5 text-sm">
          <p className="font-medium text-fg">
            {offered.length > 1
              ? `Expected by ${offered.length} recipients: choose the one it is for`
              : 'Expected by this recipient: choose them to confirm'}
          </p>
          <div className="flex flex-wrap gap-2">
            {offered.map((r) => (
              <Button
                key={r.id}
                type="button"
                variant={choice.recipient?.id === r.id ? 'default' : 'outline'}
                size="sm"
                aria-pressed={choice.recipient?.id === r.id}
                onClick={() => {
                  choice.choose(r, 'expected');
                  setPickerKey((k) => k + 1);
                }}
              >
                {recipientLabel(r)}
              </Button>
            ))}
          </div>
        </div>
      )}
      <RecipientField
        key={pickerKey}
        id={id}
        organizationId={organizationId}
        {...choice.field}
        offered={offered}
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
