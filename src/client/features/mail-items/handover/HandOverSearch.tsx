import { PickupLookupQuery, formatPickupCode, type PickupLookup } from '@contract';
import { Camera, PackageCheck, ScanLine } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { ApiError, serverMessage } from '@/lib/api';
import { checkForm } from '@/lib/forms';
import { lookupPickupCode } from '../api/handOver';
import { CodeCamera } from './CodeCamera';
import { HandOverDialog } from './HandOverDialog';

/**
 * Pending Pickups' "Hand over" field: a pickup code typed, scanned by a USB scanner (which types
 * it and presses Enter) or read from the recipient's QR by the camera, finds the recipient and
 * opens the hand-over with all their waiting items.
 */
export function HandOverSearch({ organizationId }: { organizationId: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [finding, setFinding] = useState(false);
  const [found, setFound] = useState<{ lookup: PickupLookup; code: string } | null>(null);
  const [camera, setCamera] = useState(false);

  const find = (event: FormEvent) => {
    event.preventDefault();
    void lookUp(code);
  };

  /** The camera read a code: it shows in the field, and the lookup runs as if it had been typed. */
  const onCameraCode = (read: string) => {
    setCamera(false);
    setCode(formatPickupCode(read));
    setError(undefined);
    void lookUp(read);
  };

  const lookUp = async (raw: string) => {
    const checked = checkForm(PickupLookupQuery, { code: raw });
    if (checked.errors) {
      setError(checked.errors.code);
      return;
    }
    const typed = checked.data.code;
    setFinding(true);
    try {
      const lookup = await lookupPickupCode(organizationId, typed);
      if (lookup.items.length === 0) {
        setError(`${lookup.recipient.firstName} ${lookup.recipient.lastName} has nothing waiting to be collected.`);
        return;
      }
      setError(undefined);
      // The code goes with the hand-over: the server checks it is this recipient's (decision 050).
      setFound({ lookup, code: typed });
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
          <div className="flex flex-wrap gap-2 sm:mt-7 sm:flex-nowrap">
            <Button type="submit" disabled={finding} className="flex-1 sm:flex-none">
              <PackageCheck aria-hidden /> {finding ? 'Finding…' : 'Find items'}
            </Button>
            <Button
              variant="outline"
              aria-pressed={camera}
              onClick={() => setCamera((on) => !on)}
              className="flex-1 sm:flex-none"
            >
              <Camera aria-hidden /> Scan with camera
            </Button>
          </div>
        </form>
        {camera && (
          <div className="mt-3">
            <CodeCamera onCode={onCameraCode} onClose={() => setCamera(false)} />
          </div>
        )}
      </CardContent>
      <HandOverDialog
        organizationId={organizationId}
        lookup={found?.lookup ?? null}
        pickupCode={found?.code}
        onOpenChange={(open) => !open && setFound(null)}
        onDone={reset}
      />
    </Card>
  );
}
