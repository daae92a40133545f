import type { MailItemSummary } from '@contract';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { recipientFullName, typeLabel } from '../mailItemFormat';

interface DeliverDialogProps {
  item: MailItemSummary | null;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onConfirm: (collectorName: string) => void;
}

function DeliverForm({
  item,
  pending,
  onConfirm,
  onCancel,
}: Omit<DeliverDialogProps, 'onOpenChange'> & { item: MailItemSummary; onCancel: () => void }) {
  const id = useId();
  // Most often the recipient collects it themselves: their name is ready, selected, to overwrite.
  const [name, setName] = useState(item.recipient ? recipientFullName(item) : '');
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const collector = name.trim();
    if (!collector) {
      setError('Collector name is required');
      return;
    }
    if (collector.length > 255) {
      setError('Collector name must be at most 255 characters');
      return;
    }
    onConfirm(collector);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <FormField id={id} label="Collector Name" error={error} hint="Who is picking the item up.">
        <Input
          {...fieldA11y(id, error)}
          autoFocus
          autoComplete="off"
          maxLength={255}
          value={name}
          onFocus={(event) => event.currentTarget.select()}
          onChange={(event) => {
            setName(event.target.value);
            setError(undefined);
          }}
        />
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Confirm Delivery'}
        </Button>
      </div>
    </form>
  );
}

/** Hand-over: asks who collects the item (collectorName); the server records the staff member. */
export function DeliverDialog({ item, onOpenChange, pending, onConfirm }: DeliverDialogProps) {
  return (
    <Dialog open={item !== null} onOpenChange={(open) => !pending && onOpenChange(open)}>
      {item && (
        <DialogContent
          title="Mark as Delivered"
          description={`${typeLabel(item.type)} for ${recipientFullName(item)}${item.trackingNumber ? ` · ${item.trackingNumber}` : ''}`}
        >
          <DeliverForm item={item} pending={pending} onConfirm={onConfirm} onCancel={() => onOpenChange(false)} />
        </DialogContent>
      )}
    </Dialog>
  );
}
