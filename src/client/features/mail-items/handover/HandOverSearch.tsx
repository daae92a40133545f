import { PICKUP_CODE_INVALID, isPickupCode, normalisePickupCode, type PickupLookup } from '@contract';
import { PackageCheck, ScanLine } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { ApiError, serverMessage } from '@/lib/api';
import { lookupPickupCode } from '../api/handOver';
import { HandOverDialog } from './HandOverDialog';

/**
 * Pending Pickups' "Hand over" field: a pickup code typed, or scanned by a USB scanner (which types
 * it and presses Enter), finds the recipient and opens the hand-over with all their waiting items.
 */
export function HandOverSearch({ organizationId }: { organizationId: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [finding, setFinding] = useState(false);
  const [found, setFound] = useState<PickupLookup | null>(null);

  const find = async (event: FormEvent) => {
    event.preventDefault();
    const typed = normalisePickupCode(code);
    if (!isPickupCode(typed)) {
      setError(PICKUP_CODE_INVALID);
      return;
    }
    setFinding(true);
    try {
      const lookup = await lookupPickupCode(organizationId, typed);
      if (lookup.items.length === 0) {
        setError(`${lookup.recipient.firstName} ${lookup.recipient.lastName} has nothing waiting to be collected.`);
        return;
      }
      setError(undefined);
      setFound(lookup);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 404
          ? serverMessage(err, 'No recipient has this pickup code')
          : serverMessage(err, 'The code could not be looked up. Try again.'),
      );
    } finally {
      setFinding(false);
    }
  };

  const reset = () => {
    setFound(null);
    setCode('');
    input.current?.focus();
  };

  return (
    <Card>
      <CardContent className="p-4 sm:p-5">
        <form onSubmit={find} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="flex-1 space-y-1.5">
            <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium text-fg-secondary">
              <ScanLine className="size-4" aria-hidden /> Hand over by pickup code
            </label>
            <Input
              ref={input}
              id={id}
              value={code}
              placeholder="Type or scan a code"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={40}
              className="font-mono uppercase tracking-wider placeholder:font-sans placeholder:normal-case placeholder:tracking-normal"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => {
                setCode(event.target.value);
                setError(undefined);
              }}
            />
            {error && (
              <p id={`${id}-error`} className="text-sm text-red-600 dark:text-red-400">
                {error}
              </p>
            )}
          </div>
          <Button type="submit" disabled={finding} className="sm:mt-7">
            <PackageCheck aria-hidden /> {finding ? 'Finding…' : 'Find items'}
          </Button>
        </form>
      </CardContent>
      <HandOverDialog
        organizationId={organizationId}
        lookup={found}
        onOpenChange={(open) => !open && setFound(null)}
        onDone={reset}
      />
    </Card>
  );
}
