import { BILLING_MESSAGES } from '@contract';
import { ExternalLink, FlaskConical, Info } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api';
import { toastFailure } from '@/lib/useErrorToast';
import { useCreatePortalSession } from '../api/createPortalSession';

/** Customer ids of the demo provider ('demo_cus_…') or a test fixture: no real portal to open. */
const DEMO_PREFIXES = ['demo_', 'test_'];

function Notice({ icon: Icon, title, children }: { icon: typeof Info; title: string; children: ReactNode }) {
  return (
    <div role="status" className="flex items-start gap-3 rounded-lg border border-line bg-surface-subtle px-4 py-3">
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-fg-subtle" />
      <div className="min-w-0 text-sm">
        <p className="font-semibold text-fg">{title}</p>
        <p className="mt-0.5 text-fg-muted">{children}</p>
      </div>
    </div>
  );
}

/**
 * 'Manage Subscription / View Invoices': Stripe's customer portal in a new tab. Without a payment
 * customer the spec's 'No Active Subscription' notice shows instead, and for the demo provider's
 * customers the 'Demo Environment' notice.
 */
export function PortalAction({ organizationId, customerId }: { organizationId: string; customerId: string | null }) {
  const portal = useCreatePortalSession(organizationId);
  // What the server answered when asked, in case it knows better than the summary did.
  const [answered, setAnswered] = useState<'none' | 'demo' | null>(null);

  const isDemo = answered === 'demo' || (customerId !== null && DEMO_PREFIXES.some((p) => customerId.startsWith(p)));
  if (answered === 'none' || (!customerId && !isDemo)) {
    return (
      <Notice icon={Info} title={BILLING_MESSAGES.noSubscriptionTitle}>
        {BILLING_MESSAGES.noSubscription}
      </Notice>
    );
  }
  if (isDemo) {
    return (
      <Notice icon={FlaskConical} title={BILLING_MESSAGES.demoEnvironmentTitle}>
        {BILLING_MESSAGES.demoEnvironment}
      </Notice>
    );
  }

  const open = () =>
    portal.mutate(customerId ?? undefined, {
      onSuccess: ({ url }) => {
        // A blocked pop-up (the call took a while) opens the portal here instead.
        if (!window.open(url, '_blank')) window.location.assign(url);
      },
      onError: (err) => {
        const code = err instanceof ApiError ? err.reply?.code : undefined;
        if (code === 'no_subscription') setAnswered('none');
        else if (code === 'demo_environment') setAnswered('demo');
        else toastFailure(BILLING_MESSAGES.portalFailed, err, BILLING_MESSAGES.portalUnavailable);
      },
    });

  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-fg-muted">Change seats, update your card, cancel, or download invoices.</p>
      <Button variant="outline" onClick={open} disabled={portal.isPending} className="shrink-0">
        <ExternalLink aria-hidden />
        {portal.isPending ? 'Opening…' : 'Manage Subscription / View Invoices'}
      </Button>
    </div>
  );
}
