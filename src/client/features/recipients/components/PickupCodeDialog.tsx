import { ProxyBody, type Recipient } from '@contract';
import { Plus, RefreshCw, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { LoadError } from '@/components/ListState';
import { serverMessage } from '@/lib/api';
import { checkForm } from '@/lib/forms';
import { recipientName } from '@/lib/resources/recipients';
import { toastFailure } from '@/lib/useErrorToast';
import { useAddProxy, usePickupCode, useProxies, useRegeneratePickupCode, useRemoveProxy } from '../api/pickupCode';

function CodeCard({ organizationId, recipient }: { organizationId: string; recipient: Recipient }) {
  const code = usePickupCode(organizationId, recipient.id);
  const regenerate = useRegeneratePickupCode(organizationId, recipient.id);
  const [confirming, setConfirming] = useState(false);

  if (code.isPending) return <Skeleton className="h-40 w-full" />;
  if (!code.data) {
    return <LoadError title="The pickup code could not be loaded" onRetry={() => void code.refetch()} />;
  }
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(code.data.qrCodeSvg)}`;
  return (
    <div className="flex flex-col items-center gap-4 rounded-lg border border-line p-4 sm:flex-row sm:items-center">
      <img src={qr} alt={`QR code of the pickup code ${code.data.code}`} className="size-32 rounded bg-white p-1" />
      <div className="flex-1 space-y-2 text-center sm:text-left">
        <p className="text-sm text-fg-subtle">Pickup code</p>
        <p className="font-mono text-3xl font-semibold tracking-widest text-fg" data-pickup-code>
          {code.data.code}
        </p>
        {confirming ? (
          <div className="space-y-2 rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
            <p>The old code stops working at once. Give the new one to {recipientName(recipient)}.</p>
            <div className="flex gap-2">
              <Button size="sm" variant="outline" onClick={() => setConfirming(false)} disabled={regenerate.isPending}>
                Keep this code
              </Button>
              <Button
                size="sm"
                disabled={regenerate.isPending}
                onClick={() =>
                  regenerate.mutate(undefined, {
                    onSuccess: (next) => {
                      setConfirming(false);
                      toast({ title: 'New pickup code', description: `${recipientName(recipient)}: ${next.code}.` });
                    },
                    onError: (err) => toastFailure('Could not make a new code', err, 'Try again.'),
                  })
                }
              >
                {regenerate.isPending ? 'Making…' : 'Make a new code'}
              </Button>
            </div>
          </div>
        ) : (
          <Button size="sm" variant="outline" onClick={() => setConfirming(true)}>
            <RefreshCw aria-hidden /> New code
          </Button>
        )}
      </div>
    </div>
  );
}

function ProxiesCard({ organizationId, recipient }: { organizationId: string; recipient: Recipient }) {
  const id = useId();
  const proxies = useProxies(organizationId, recipient.id);
  const add = useAddProxy(organizationId, recipient.id);
  const remove = useRemoveProxy(organizationId, recipient.id);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(ProxyBody, { name });
    if (checked.errors) {
      setError(checked.errors.name);
      return;
    }
    add.mutate(checked.data.name, {
      onSuccess: () => setName(''),
      onError: (err) => setError(serverMessage(err, 'The name could not be added. Try again.')),
    });
  };

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <div>
        <h3 id={`${id}-title`} className="text-sm font-medium text-fg">
          May collect for {recipient.firstName}
        </h3>
        <p className="text-sm text-fg-subtle">
          The desk sees these names at hand-over; anyone else needs a reason, which is recorded.
        </p>
      </div>
      {proxies.isPending ? (
        <Skeleton className="h-9 w-full" />
      ) : proxies.data && proxies.data.length > 0 ? (
        <ul className="divide-y divide-line rounded-lg border border-line">
          {proxies.data.map((proxy) => (
            <li key={proxy.id} className="flex items-center justify-between gap-2 px-3 py-2 text-sm">
              {proxy.name}
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${proxy.name}`}
                disabled={remove.isPending}
                onClick={() =>
                  remove.mutate(proxy.id, { onError: (err) => toastFailure('Could not remove', err, 'Try again.') })
                }
              >
                <X aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="rounded-lg border border-dashed border-line px-3 py-2 text-sm text-fg-subtle">
          Nobody yet: only {recipientName(recipient)} collects without a reason.
        </p>
      )}
      <form onSubmit={submit} noValidate className="flex gap-2">
        <Input
          {...fieldA11y(id, error)}
          aria-label="Name of someone who may collect"
          placeholder="Name of someone who may collect"
          maxLength={255}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setError(undefined);
          }}
        />
        <Button type="submit" variant="outline" disabled={add.isPending}>
          <Plus aria-hidden /> Add
        </Button>
      </form>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </section>
  );
}

/** A recipient's pickup code with its QR (a new one on request) and the people who may collect for them. */
export function PickupCodeDialog({
  organizationId,
  recipient,
  onOpenChange,
}: {
  organizationId: string;
  recipient: Recipient | undefined;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={recipient !== undefined} onOpenChange={onOpenChange}>
      {recipient && (
        <DialogContent
          title={`Pickup for ${recipientName(recipient)}`}
          description="They show this code at the desk, or its QR, to collect their items."
        >
          <div className="space-y-6">
            <CodeCard organizationId={organizationId} recipient={recipient} />
            <ProxiesCard organizationId={organizationId} recipient={recipient} />
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
