import { MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useSchemaForm } from '@/lib/schemaForm';
import { useSubmission } from '@/lib/useSubmission';
import { messageOf } from '../api/portalRequest';
import { requestPortalLink } from '../api/requestLink';

/** Email address or phone number in, a link out; the answer never says whether the address is known. */
export function RequestLinkForm() {
  // /my has no query client (it is the page's way in, kept small): useSubmission, as the sign-in forms
  const request = useSubmission(requestPortalLink);
  const form = useSchemaForm(() => import('../requestLinkSchema').then((m) => m.PortalLinkRequestBody), {
    address: '',
  });
  const onSubmit = form.submit(({ address }) => request.run(address));
  const error = form.errors.address ?? (request.status === 'failed' ? messageOf(request.error) : null);

  if (request.status === 'done') {
    return (
      <div
        role="status"
        className="flex gap-3 rounded-lg bg-emerald-50 p-4 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
      >
        <MailCheck aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="space-y-2">
          <p>{request.result.message}</p>
          <button type="button" className="font-medium underline" onClick={request.reset}>
            Use another address
          </button>
        </div>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} onFocus={form.preload} noValidate className="space-y-4">
      <div className="space-y-1.5">
        <Label htmlFor="portal-address">Email address or mobile number</Label>
        <Input
          id="portal-address"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com or +1 555 123 4567"
          {...form.field('address')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'portal-address-error' : undefined}
        />
        {error && (
          <p id="portal-address-error" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={request.isPending || form.values.address.trim() === ''}>
        {request.isPending ? 'Sending…' : 'Send me a link'}
      </Button>
    </form>
  );
}
