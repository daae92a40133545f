import { AlertTriangle, Clock, Pencil, RotateCw, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { FormActions } from '@/components/FormActions';
import { formatDateTime } from '@/lib/format';
import { RecipientField } from '../components/RecipientField';
import { useRecipientChoice } from '../components/useRecipientChoice';
import { correct, discard, syncOutbox, type OutboxEntry } from './outbox';
import { useOnline, useOutbox } from './useOutbox';

/**
 * Mail Intake's items logged on this device and not yet on the server (decision 044): each
 * "Waiting to sync", or set aside with its reason: refused by the server, to correct (a new
 * recipient, or none: it then waits under Needs a recipient) or discard; or one the server kept
 * failing on (decision 048), to retry as it is, correct or discard. Nothing leaves this list by
 * itself but by being sent.
 */
export function WaitingToSync({ organizationId }: { organizationId: string }) {
  const waiting = useOutbox(organizationId);
  const online = useOnline();
  const [editing, setEditing] = useState<OutboxEntry | null>(null);
  const [discarding, setDiscarding] = useState<OutboxEntry | null>(null);
  if (waiting.length === 0) return null;
  return (
    <Card className="mb-6 border-amber-300/70 dark:border-amber-500/40" data-testid="waiting-to-sync">
      <CardHeader>
        <CardTitle>Waiting to sync ({waiting.length})</CardTitle>
        <CardDescription>
          {online
            ? 'Logged on this device; sent in the order logged.'
            : 'Offline: logged on this device and sent in the order logged when the network returns.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-line">
          {waiting.map((entry) => (
            <li
              key={entry.key}
              data-testid="waiting-row"
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="truncate font-medium text-fg">{entry.label}</p>
                <p className="text-xs text-fg-subtle">
                  Logged {formatDateTime(new Date(entry.queuedAt).toISOString())}
                  {entry.photo ? ' · with photo' : ''}
                </p>
                {entry.refused ? (
                  <p
                    role="alert"
                    data-testid={entry.failed ? 'set-aside-reason' : 'refused-reason'}
                    className="mt-1 inline-flex items-start gap-1.5 text-sm font-medium text-red-700 dark:text-red-300"
                  >
                    <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
                    {entry.failed ? `Set aside, not logged: ${entry.refused}` : `Not logged: ${entry.refused}`}
                  </p>
                ) : (
                  <p className="mt-1 inline-flex items-center gap-1.5 text-sm text-amber-800 dark:text-amber-200">
                    <Clock aria-hidden className="size-4" /> Waiting to sync
                  </p>
                )}
              </div>
              <div className="flex shrink-0 flex-wrap gap-2">
                {entry.failed && entry.refused && (
                  <Button variant="outline" size="sm" disabled={!online} onClick={() => void correct(entry.key)}>
                    <RotateCw aria-hidden /> Retry
                  </Button>
                )}
                {entry.refused && (
                  <Button variant="outline" size="sm" onClick={() => setEditing(entry)}>
                    <Pencil aria-hidden /> Edit
                  </Button>
                )}
                {!entry.refused && online && (
                  <Button variant="outline" size="sm" onClick={() => void syncOutbox()}>
                    <RotateCw aria-hidden /> Send now
                  </Button>
                )}
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-red-700 hover:text-red-800 dark:text-red-300"
                  onClick={() => setDiscarding(entry)}
                >
                  <Trash2 aria-hidden /> Discard
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
      <CorrectDialog organizationId={organizationId} entry={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={discarding !== null}
        onOpenChange={(open) => !open && setDiscarding(null)}
        title="Discard this item?"
        description={`${discarding?.label ?? ''} was never logged on the server. Discarded, it is gone from this device too.`}
        confirmLabel="Discard"
        onConfirm={() => {
          if (discarding) void discard(discarding.key);
          setDiscarding(null);
        }}
      />
    </Card>
  );
}

/** A refused item's recipient chosen again (or none), then sent again with its key. */
function CorrectDialog({
  organizationId,
  entry,
  onClose,
}: {
  organizationId: string;
  entry: OutboxEntry | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={entry !== null} onOpenChange={(open) => !open && onClose()}>
      {entry && (
        <DialogContent
          title="Correct the waiting item"
          description={entry.failed ? `Set aside: ${entry.refused ?? ''}` : `The server said: ${entry.refused ?? ''}`}
        >
          <CorrectForm organizationId={organizationId} entry={entry} onClose={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function CorrectForm({
  organizationId,
  entry,
  onClose,
}: {
  organizationId: string;
  entry: OutboxEntry;
  onClose: () => void;
}) {
  const id = useId();
  const choice = useRecipientChoice(null);
  const tracking = typeof entry.body.trackingNumber === 'string' ? entry.body.trackingNumber.trim() : '';
  const send = (withoutRecipient: boolean) => {
    const recipient = withoutRecipient ? null : choice.recipient;
    if (!withoutRecipient && !recipient) {
      choice.setError('Choose a recipient from the list, or log it without one');
      return;
    }
    const who = recipient ? `${recipient.firstName} ${recipient.lastName}` : 'no recipient yet';
    void correct(entry.key, {
      route: withoutRecipient ? 'without-recipient' : 'create',
      body: { ...entry.body, recipientId: recipient?.id ?? null },
      label: `${tracking || 'Item'} for ${who}`,
    });
    onClose();
  };
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        send(false);
      }}
    >
      <p className="text-sm text-fg-muted">{entry.label}</p>
      <RecipientField id={id} organizationId={organizationId} {...choice.field} hint="Pick who it is for now." />
      <FormActions pending={false} onCancel={onClose} submitLabel="Send again" pendingLabel="Sending…">
        <Button type="button" variant="outline" className="sm:mr-auto" onClick={() => send(true)}>
          Log without recipient
        </Button>
      </FormActions>
    </form>
  );
}
