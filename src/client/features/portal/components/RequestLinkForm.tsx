import { MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { messageOf } from '../api/portalRequest';
import { requestPortalLink } from '../api/requestLink';

/** Email address or phone number in, a link out; the answer never says whether the address is known. */
export function RequestLinkForm() {
  const [address, setAddress] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setSent((await requestPortalLink(address)).message);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <div
        role="status"
        className="flex gap-3 rounded-lg bg-emerald-50 p-4 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
      >
        <MailCheck aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="space-y-2">
          <p>{sent}</p>
          <button type="button" className="font-medium underline" onClick={() => setSent(null)}>
            Use another address
          </button>
        </div>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="space-y-1.5">
        <Label htmlFor="portal-address">Email address or mobile number</Label>
        <Input
          id="portal-address"
          name="address"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com or +1 555 123 4567"
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'portal-address-error' : undefined}
        />
        {error && (
          <p id="portal-address-error" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={busy || address.trim() === ''}>
        {busy ? 'Sending…' : 'Send me a link'}
      </Button>
    </form>
  );
}
