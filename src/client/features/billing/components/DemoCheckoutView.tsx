import { BILLING_MESSAGES, PLANS, formatCents, type DemoCheckout } from '@contract';
import { AlertCircle, ArrowLeft, CheckCircle2, FlaskConical, Lock } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Logo } from '@/components/Logo';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toastFailure } from '@/lib/useErrorToast';
import { ApiError, serverMessage } from '@/lib/api';
import { useCompleteDemoCheckout } from '../api/completeDemoCheckout';
import { useDemoCheckout } from '../api/demoCheckout';
import { useUpgradeComplete } from '../hooks/useUpgradeComplete';

export const DEMO_PROVIDER_LABEL = 'Demo payment provider — no card is charged';

/** The page frame: a provider's page, not the app's, with the demo label impossible to miss. */
function ProviderFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-surface-muted">
      <div
        role="note"
        className="border-b border-amber-300 dark:border-amber-700 bg-amber-100 dark:bg-amber-900/40 px-4 py-2.5 text-amber-950 dark:text-amber-300"
      >
        <p className="mx-auto flex max-w-md items-center justify-center gap-2 text-center text-sm font-semibold">
          <FlaskConical aria-hidden className="size-4 shrink-0 text-amber-700 dark:text-amber-300" />
          {DEMO_PROVIDER_LABEL}
        </p>
      </div>
      <main className="flex flex-1 items-start justify-center px-4 py-8 sm:py-14">
        <div className="w-full max-w-md space-y-4">{children}</div>
      </main>
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2.5">
      <dt className="text-sm text-fg-subtle">{label}</dt>
      <dd className="min-w-0 text-right text-sm font-medium break-words text-fg">{children}</dd>
    </div>
  );
}

function Summary({ checkout }: { checkout: DemoCheckout }) {
  const plan = PLANS[checkout.planType];
  return (
    <dl className="divide-y divide-line-subtle">
      <Row label="Plan">{plan.name}</Row>
      <Row label="Users">{checkout.quantity}</Row>
      <Row label="Price">{formatCents(plan.pricePerUser)} per user per month</Row>
      <Row label="Email">{checkout.customerEmail ?? 'Not given'}</Row>
      <div className="flex items-baseline justify-between gap-4 pt-3">
        <dt className="text-sm font-semibold text-fg">Monthly amount</dt>
        <dd className="text-2xl font-bold text-fg tabular-nums">
          {formatCents(checkout.amount)}
          <span className="text-sm font-normal text-fg-subtle"> {checkout.currency}/month</span>
        </dd>
      </div>
    </dl>
  );
}

function Problem({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="p-6 text-center">
      <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-red-50 dark:bg-red-950/40 text-red-600 dark:text-red-400">
        <AlertCircle aria-hidden className="size-6" />
      </span>
      <h1 className="mt-4 text-lg font-semibold text-fg">{title}</h1>
      <div className="mt-1 text-sm text-fg-muted">{children}</div>
      <Button asChild variant="outline" className="mt-6">
        <Link href="/checkout">
          <ArrowLeft aria-hidden /> Back to checkout
        </Link>
      </Button>
    </Card>
  );
}

/**
 * /checkout/demo/{id}: the local stand-in for Stripe Checkout while the server runs the demo
 * payment provider (DEMO_PAYMENTS). Completing it applies the plan on the server exactly as a
 * verified payment would; an hour after it was opened it has expired.
 */
export function DemoCheckoutView({ organizationId, checkoutId }: { organizationId: string; checkoutId: string }) {
  const checkout = useDemoCheckout(organizationId, checkoutId);
  const complete = useCompleteDemoCheckout(organizationId, checkoutId);
  const upgraded = useUpgradeComplete(organizationId);
  const [done, setDone] = useState(false);

  const pay = () => {
    if (!checkout.data) return;
    const { planType } = checkout.data;
    complete.mutate(undefined, {
      onSuccess: () => {
        setDone(true);
        upgraded(planType);
      },
      onError: (err) => toastFailure(BILLING_MESSAGES.paymentFailedTitle, err, BILLING_MESSAGES.paymentFailed),
    });
  };

  let body: ReactNode;
  if (checkout.isPending) {
    body = (
      <Card aria-busy className="space-y-4 p-6">
        <Skeleton className="h-6 w-40" />
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-5 w-full" />
        ))}
        <Skeleton className="h-11 w-full" />
      </Card>
    );
  } else if (checkout.isError) {
    const notFound = checkout.error instanceof ApiError && checkout.error.status === 404;
    body = (
      <Problem title={notFound ? BILLING_MESSAGES.checkoutNotFound : 'This checkout could not be opened'}>
        {notFound
          ? 'It may belong to another organization, or it was started on another server. Start again from checkout.'
          : serverMessage(checkout.error, 'Please try again in a moment.')}
      </Problem>
    );
  } else if (checkout.data.status === 'expired') {
    body = <Problem title="This demo checkout has expired">{BILLING_MESSAGES.demoCheckoutExpired}</Problem>;
  } else {
    const paidAlready = checkout.data.status === 'completed' && !done;
    body = (
      <Card className="overflow-hidden">
        <div className="border-b border-line bg-surface px-6 py-5">
          <p className="text-xs font-medium tracking-wide text-fg-subtle uppercase">Pay</p>
          <div className="mt-1 flex items-center justify-between gap-3">
            <Logo />
            <span className="rounded-full border border-amber-300 dark:border-amber-700 bg-amber-50 dark:bg-amber-950/40 px-2.5 py-0.5 text-xs font-semibold text-amber-800 dark:text-amber-300">
              Demo
            </span>
          </div>
        </div>
        <div className="space-y-6 px-6 py-5">
          <h1 className="text-lg font-semibold text-fg">
            {PLANS[checkout.data.planType].name} plan for {checkout.data.quantity}{' '}
            {checkout.data.quantity === 1 ? 'user' : 'users'}
          </h1>
          <Summary checkout={checkout.data} />
          {done || paidAlready ? (
            <div
              role="status"
              className="flex items-start gap-2 rounded-lg border border-emerald-200 dark:border-emerald-800 bg-emerald-50 dark:bg-emerald-950/40 px-3 py-3 text-sm text-emerald-900 dark:text-emerald-300"
            >
              <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
              <span>
                {done ? 'Payment complete. Taking you to the dashboard…' : 'This demo payment is already complete.'}
                {paidAlready && (
                  <>
                    {' '}
                    <Link href="/settings-billing" className="font-medium underline underline-offset-2">
                      See billing
                    </Link>
                  </>
                )}
              </span>
            </div>
          ) : (
            <div className="space-y-2">
              <Button size="lg" className="w-full" onClick={pay} disabled={complete.isPending}>
                <Lock aria-hidden />
                {complete.isPending ? 'Completing…' : 'Complete demo payment'}
              </Button>
              <Button asChild variant="outline" className="w-full">
                <Link href="/checkout">Cancel</Link>
              </Button>
            </div>
          )}
        </div>
        <p className="border-t border-line bg-surface-subtle px-6 py-4 text-xs leading-relaxed text-fg-subtle">
          This page stands in for Stripe Checkout because this server runs the demo payment provider. Completing it
          applies the plan exactly as a real payment would, and nobody is charged.
        </p>
      </Card>
    );
  }

  return <ProviderFrame>{body}</ProviderFrame>;
}
