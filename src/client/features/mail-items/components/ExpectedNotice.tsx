import type { ExpectedBy } from '@contract';
import { PackageCheck, PackageSearch } from 'lucide-react';
import { Button } from '@/components/ui/button';

const nameOf = ({ recipient }: ExpectedBy) =>
  `${recipient.firstName} ${recipient.lastName}`.trim() + (recipient.unit ? ` (${recipient.unit})` : '');
const names = (list: ExpectedBy[]) => list.map(nameOf).join(', ');

/**
 * Who expects the tracking number, beside the recipient chosen (decision 047). An expected number
 * never outranks the label or the clerk: the chosen recipient stays and the desk reads "also
 * expected by" to decide; with nobody chosen, every expecter is offered and none filled in. A
 * button per expecter chooses them (the clerk's confirmation); so does Enter in the empty
 * Recipient field, where they head the list.
 */
export function ExpectedNotice({
  expecters,
  chosenId,
  onChoose,
}: {
  expecters: ExpectedBy[];
  chosenId: string | null;
  onChoose: (expecter: ExpectedBy) => void;
}) {
  if (expecters.length === 0) return null;
  const chosen = expecters.find((e) => e.recipient.id === chosenId);
  const others = expecters.filter((e) => e !== chosen);
  const label = chosen?.label ? ` · ${chosen.label}` : '';
  return (
    <div role="status" className="-mt-2 space-y-1.5" data-testid="expected-notice">
      {chosen && (
        <p className="inline-flex items-center gap-1.5 rounded-lg bg-emerald-50 px-3 py-1 text-sm font-medium text-emerald-800 ring-1 ring-emerald-600/20 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-400/30">
          <PackageCheck aria-hidden className="size-4" />
          Expected by {nameOf(chosen)}
          {label}
        </p>
      )}
      {others.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 rounded-lg bg-amber-50 px-3 py-1.5 text-sm text-amber-900 ring-1 ring-amber-600/25 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-400/30">
          <PackageSearch aria-hidden className="size-4 shrink-0" />
          <span className="font-medium">
            {chosenId ? 'Also expected by' : 'Expected by'} {names(others)}
          </span>
          {!chosenId && (
            <span className="text-amber-800 dark:text-amber-300">
              {others.length > 1 ? '· not filled in: choose one' : '· choose to confirm'}
            </span>
          )}
          {others.map((e) => (
            <Button
              key={e.expectedPackageId}
              type="button"
              variant="outline"
              size="sm"
              className="h-7 px-2"
              onClick={() => onChoose(e)}
            >
              Choose {e.recipient.firstName} {e.recipient.lastName}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
