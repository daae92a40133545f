import type { Recipient } from '@contract';
import { BellOff, ClipboardList, ImageOff, TriangleAlert, UserX } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { recipientName } from '@/lib/resources/recipients';

/** Case and spacing do not matter when the admin types the name. */
const normalize = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

interface ErasePersonalDataDialogProps {
  /** The recipient to erase; the dialog is open while it is set. */
  recipient: Recipient | null;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onConfirm: (recipient: Recipient) => void;
}

/**
 * Says what erasing a recipient's personal data does (decision 015) and asks the admin to type
 * the recipient's name before the destructive button works.
 */
export function ErasePersonalDataDialog({ recipient, onOpenChange, pending, onConfirm }: ErasePersonalDataDialogProps) {
  return (
    <Dialog open={Boolean(recipient)} onOpenChange={(next) => !pending && onOpenChange(next)}>
      {recipient && (
        <DialogContent
          role="alertdialog"
          title="Erase personal data"
          description={`Erase everything held about ${recipientName(recipient)}. This cannot be undone.`}
          className="sm:max-w-xl"
        >
          {/* keyed: a new recipient starts with an empty confirmation */}
          <EraseForm
            key={recipient.id}
            recipient={recipient}
            pending={pending}
            onCancel={() => onOpenChange(false)}
            onConfirm={() => onConfirm(recipient)}
          />
        </DialogContent>
      )}
    </Dialog>
  );
}

const consequences = [
  {
    icon: UserX,
    text: 'Their name, email, phone, unit and department are removed. The record stays as “Erased recipient”, inactive.',
  },
  {
    icon: ClipboardList,
    text: 'Their name, email and phone are removed from their mail items, collector names, history notes and the messages sent to them.',
  },
  {
    icon: ClipboardList,
    text: 'Their full name, email and phone are also removed from other people’s mail items (a parcel they collected for someone else, a note), with their history and messages. A first or last name on its own is left there: it may be someone else’s.',
  },
  { icon: ImageOff, text: 'Photos of their mail items are deleted.' },
  { icon: BellOff, text: 'Messages still waiting to go out to them are cancelled.' },
];

function EraseForm({
  recipient,
  pending,
  onCancel,
  onConfirm,
}: {
  recipient: Recipient;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const name = recipientName(recipient);
  const [typed, setTyped] = useState('');
  const confirmed = normalize(typed) === normalize(name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirmed && !pending) onConfirm();
  };

  return (
    <form onSubmit={submit} className="space-y-5">
      <ul className="space-y-2.5 text-sm text-fg-secondary">
        {consequences.map(({ icon: Icon, text }) => (
          <li key={text} className="flex gap-3">
            <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-red-600 dark:text-red-400" />
            <span>{text}</span>
          </li>
        ))}
      </ul>
      <p className="rounded-lg border border-line bg-surface-subtle px-3 py-2.5 text-sm text-fg-muted">
        <span className="font-medium text-fg">Delivery history is kept.</span> Their items, statuses and dates stay, so
        counts and reports do not change. If they asked for a copy of their data, download it first.
      </p>
      <div className="space-y-1.5">
        <Label htmlFor="erase-confirm-name">
          Type <span className="font-semibold text-fg">{name}</span> to confirm
        </Label>
        <Input
          id="erase-confirm-name"
          autoComplete="off"
          spellCheck={false}
          autoFocus
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          disabled={pending}
          aria-describedby="erase-confirm-hint"
        />
        <p id="erase-confirm-hint" className="flex items-center gap-1.5 text-xs text-fg-subtle">
          <TriangleAlert aria-hidden className="size-3.5 shrink-0 text-amber-500 dark:text-amber-400" />
          The erase button works once the name matches.
        </p>
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" disabled={!confirmed || pending}>
          {pending ? 'Erasing…' : 'Erase personal data'}
        </Button>
      </div>
    </form>
  );
}
