import type { MailItem, UpdateMailItemBody } from '@contract';
import { ArrowRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { changesBetween, describeChange, type SeenItem } from '../conflict';

export interface Conflict {
  /** The item as the clerk saw it when they made their change. */
  seen: SeenItem;
  /** The item now (the server's 409). */
  current: MailItem;
  /** The clerk's change, to apply again on the item as it is now. */
  body: UpdateMailItemBody;
}

/**
 * Someone else changed the item while this clerk was changing it (decision 044): what they
 * changed, field by field, what this clerk meant to change, and the choice. "Apply mine again"
 * sends the same change on top of theirs; "Keep theirs" drops it.
 */
export function ConflictDialog({
  conflict,
  pending,
  onApplyMine,
  onKeepTheirs,
}: {
  conflict: Conflict | null;
  pending: boolean;
  onApplyMine: (conflict: Conflict) => void;
  onKeepTheirs: () => void;
}) {
  const changes = conflict ? changesBetween(conflict.seen, conflict.current) : [];
  const mine = conflict ? describeChange(conflict.body) : [];
  return (
    <Dialog open={conflict !== null} onOpenChange={(open) => !open && !pending && onKeepTheirs()}>
      {conflict && (
        <DialogContent
          title="Someone else changed this item"
          description="Their change was saved while you were making yours. Nothing of yours was saved yet."
          className="sm:max-w-lg"
        >
          <section aria-labelledby="conflict-theirs" className="space-y-2">
            <h3 id="conflict-theirs" className="text-sm font-semibold text-fg">
              What they changed
            </h3>
            {changes.length > 0 ? (
              <ul className="divide-y divide-line rounded-lg border border-line" data-testid="conflict-changes">
                {changes.map((c) => (
                  <li key={c.field} className="grid gap-1 px-3 py-2 text-sm sm:grid-cols-[8rem_1fr]">
                    <span className="font-medium text-fg-muted">{c.field}</span>
                    <span className="flex flex-wrap items-center gap-1.5">
                      <span className="text-fg-subtle line-through">{c.before}</span>
                      <ArrowRight aria-label="now" className="size-3.5 text-fg-subtle" />
                      <span className="font-medium text-fg">{c.after}</span>
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-fg-muted">
                Details you did not see here (a message sent, a note); the fields above are unchanged.
              </p>
            )}
          </section>
          {mine.length > 0 && (
            <section aria-labelledby="conflict-mine" className="mt-4 space-y-1">
              <h3 id="conflict-mine" className="text-sm font-semibold text-fg">
                Your change
              </h3>
              <ul className="list-disc pl-5 text-sm text-fg-muted">
                {mine.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </section>
          )}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onKeepTheirs} disabled={pending}>
              Keep theirs
            </Button>
            <Button onClick={() => onApplyMine(conflict)} disabled={pending}>
              {pending ? 'Applying…' : 'Apply mine again'}
            </Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
