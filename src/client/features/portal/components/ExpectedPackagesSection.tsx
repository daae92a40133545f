import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { PackageCheck, Trash2 } from 'lucide-react';
import {
  EXPECTED_PACKAGES_MAX,
  RegisteredTrackingNumber,
  type AddExpectedPackagesBody,
  type ExpectedPackageList,
} from '@contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { messageOf, portalApi } from './api';

/**
 * The recipient's page: the tracking numbers they expect (decision 033). A number typed, or a
 * shipping confirmation pasted whole (the server takes the numbers from it). Only a number its
 * carrier would issue is taken (decision 047: checked here at once, and by the server); the desk's
 * scan of one shows that they expect it, and they are told once it is logged for them. Behind the
 * portal's recipient session.
 */
export function ExpectedPackagesSection() {
  const ids = { number: useId(), label: useId(), text: useId() };
  const [mode, setMode] = useState<'number' | 'paste'>('number');
  const [trackingNumber, setTrackingNumber] = useState('');
  const [label, setLabel] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [added, setAdded] = useState<string>();

  // The page's own calls (features/portal/api.ts): the staff app's query cache is not loaded here.
  const [list, setList] = useState<{ data?: ExpectedPackageList; isError: boolean; isPending: boolean }>({
    isError: false,
    isPending: true,
  });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState(false);
  const load = useCallback(() => {
    portalApi.expected().then(
      (data) => setList({ data, isError: false, isPending: false }),
      () => setList((current) => ({ ...current, isError: true, isPending: false })),
    );
  }, []);
  useEffect(load, [load]);

  const addExpected = async (body: AddExpectedPackagesBody) => {
    setAdding(true);
    try {
      const reply = await portalApi.addExpected(body);
      setError(undefined);
      setAdded(
        reply.items.length === 1
          ? `Added ${reply.items[0]!.trackingNumber}`
          : `Added ${reply.items.length} tracking numbers`,
      );
      setTrackingNumber('');
      setLabel('');
      setText('');
    } catch (err) {
      setAdded(undefined);
      setError(messageOf(err, 'Could not add it. Try again'));
    } finally {
      setAdding(false);
      load();
    }
  };
  const removeExpected = async (id: string) => {
    setRemoving(true);
    await portalApi.removeExpected(id).catch(() => undefined);
    setRemoving(false);
    load();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'number') {
      if (!trackingNumber.trim()) return setError('Type the tracking number');
      // The carrier's format and check digit, as the server checks them: a typo is caught at once.
      const checked = RegisteredTrackingNumber.safeParse(trackingNumber);
      if (!checked.success) return setError(checked.error.issues[0]?.message);
      void addExpected({ trackingNumber, ...(label.trim() ? { label } : {}) });
    } else {
      if (!text.trim()) return setError('Paste the shipping email');
      void addExpected({ text, ...(label.trim() ? { label } : {}) });
    }
  };

  const items = list.data?.items ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Expected packages</CardTitle>
        <CardDescription>
          Tell the mailroom what is on its way: when it arrives, the desk sees that you expect it, and you are told once
          it is logged for you.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <form onSubmit={submit} noValidate className="space-y-3">
          <div role="group" aria-label="How to add" className="flex gap-2">
            <Button
              variant={mode === 'number' ? 'default' : 'outline'}
              size="sm"
              aria-pressed={mode === 'number'}
              onClick={() => setMode('number')}
            >
              Tracking number
            </Button>
            <Button
              variant={mode === 'paste' ? 'default' : 'outline'}
              size="sm"
              aria-pressed={mode === 'paste'}
              onClick={() => setMode('paste')}
            >
              Paste a shipping email
            </Button>
          </div>
          {mode === 'number' ? (
            <FormField id={ids.number} label="Tracking number" error={error}>
              <Input
                {...fieldA11y(ids.number, error)}
                value={trackingNumber}
                onChange={(e) => setTrackingNumber(e.target.value)}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                placeholder="1Z 999 AA1 0123 4567 84"
              />
            </FormField>
          ) : (
            <FormField
              id={ids.text}
              label="Shipping email"
              error={error}
              hint="Paste the whole email; the tracking numbers are taken from it."
            >
              <Textarea
                {...fieldA11y(ids.text, error)}
                value={text}
                onChange={(e) => setText(e.target.value)}
                rows={5}
              />
            </FormField>
          )}
          <FormField id={ids.label} label="What it is" optional>
            <Input
              id={ids.label}
              value={label}
              onChange={(e) => setLabel(e.target.value)}
              maxLength={255}
              placeholder="Winter boots"
            />
          </FormField>
          <div className="flex items-center gap-3">
            <Button type="submit" disabled={adding}>
              {adding ? 'Adding…' : 'Add'}
            </Button>
            {added && (
              <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
                {added}
              </p>
            )}
          </div>
        </form>

        {list.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            Your expected packages could not be loaded.{' '}
            <Button variant="outline" size="sm" className="ml-2" onClick={load}>
              Try again
            </Button>
          </p>
        ) : list.isPending ? null : items.length === 0 ? (
          <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-fg-secondary">
            Nothing expected yet. Add a tracking number when you order something (up to {EXPECTED_PACKAGES_MAX}).
          </p>
        ) : (
          <ul className="divide-y divide-line rounded-lg border border-line" aria-label="Expected packages">
            {items.map((p) => (
              <li key={p.id} className="flex items-center gap-3 px-4 py-3">
                <PackageCheck aria-hidden className="size-5 shrink-0 text-fg-secondary" />
                <div className="min-w-0 flex-1">
                  {/* whole, wrapped: a number cut short cannot be checked against the shop's email */}
                  <p className="font-mono text-sm break-all uppercase">{p.trackingNumber}</p>
                  <p className="truncate text-xs text-fg-secondary">
                    {[p.carrier, p.label].filter(Boolean).join(' · ') || 'Carrier not recognised'}
                  </p>
                </div>
                {p.matchedAt ? (
                  <Badge tone="green">Arrived</Badge>
                ) : (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove ${p.trackingNumber}`}
                    disabled={removing}
                    onClick={() => void removeExpected(p.id)}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
