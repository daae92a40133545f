import { BILLING_MESSAGES, type PaidPlanType } from '@contract';
import { useQueryClient } from '@tanstack/react-query';
import { AlertCircle, FlaskConical } from 'lucide-react';
import { InlineLoadError } from '@/components/ListState';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { serverMessage } from '@/lib/api';
import { capturePaypalOrder } from '../api/capturePaypalOrder';
import { createPaypalOrder } from '../api/createPaypalOrder';
import { invalidateBilling } from '../api/invalidateBilling';
import { usePaypalSetup } from '../api/paypalSetup';
import { upgradeOrganization } from '../api/upgradeOrganization';
import { loadPaypalSdk, type PaypalNamespace } from '../paypal/loadPaypalSdk';

interface PaypalPaymentProps {
  organizationId: string;
  planType: PaidPlanType;
  userCount: number;
  /** Why paying is not possible yet (a wrong number of users), or null. */
  problem: string | null;
  /** Called once the payment is captured and the plan applied. */
  onSucceeded: (planType: PaidPlanType) => void;
}

function paymentFailed(err: unknown) {
  toast({
    title: BILLING_MESSAGES.paymentFailedTitle,
    description: serverMessage(err, BILLING_MESSAGES.paymentFailed),
    variant: 'destructive',
  });
}

/**
 * The spec's PayPal flow: create the order (the server prices it), capture it once approved, then
 * post the upgrade. Answers whether the plan was applied; every failure has its spec §8 toast.
 */
function usePaypalFlow({ organizationId, onSucceeded }: Pick<PaypalPaymentProps, 'organizationId' | 'onSucceeded'>) {
  const queryClient = useQueryClient();
  return {
    async createOrder(planType: PaidPlanType, userCount: number): Promise<string> {
      try {
        return (await createPaypalOrder(organizationId, planType, userCount)).id;
      } catch (err) {
        paymentFailed(err);
        throw err;
      }
    },
    async approve(orderId: string, planType: PaidPlanType, userCount: number): Promise<boolean> {
      try {
        await capturePaypalOrder(organizationId, orderId, { planType, userCount });
      } catch (err) {
        paymentFailed(err);
        return false;
      }
      try {
        await upgradeOrganization(organizationId, { planType, userCount });
      } catch {
        // The money moved but the plan did not follow: say so plainly, and show what the server has.
        toast({
          title: BILLING_MESSAGES.paidButNotUpgradedTitle,
          description: BILLING_MESSAGES.paidButNotUpgraded,
          variant: 'destructive',
        });
        void invalidateBilling(queryClient, organizationId);
        return false;
      }
      onSucceeded(planType);
      return true;
    },
  };
}

/** Without PayPal keys: a clearly labelled button that runs the same calls against the demo provider. */
function DemoPaypalButton({
  flow,
  planType,
  userCount,
  problem,
}: {
  flow: ReturnType<typeof usePaypalFlow>;
  planType: PaidPlanType;
  userCount: number;
  problem: string | null;
}) {
  const [state, setState] = useState<'idle' | 'paying' | 'done'>('idle');
  const pay = async () => {
    setState('paying');
    try {
      const orderId = await flow.createOrder(planType, userCount);
      setState((await flow.approve(orderId, planType, userCount)) ? 'done' : 'idle');
    } catch {
      setState('idle');
    }
  };
  return (
    <div className="space-y-2">
      <Button
        className="h-11 w-full bg-[#ffc439] text-base font-semibold text-fg hover:bg-[#f2b52e]"
        disabled={problem !== null || state !== 'idle'}
        onClick={() => void pay()}
      >
        {state === 'paying' ? 'Processing payment…' : state === 'done' ? 'Paid' : 'Pay with PayPal (demo)'}
      </Button>
      <p className="flex items-start gap-1.5 text-xs text-fg-subtle">
        <FlaskConical aria-hidden className="mt-0.5 size-3.5 shrink-0" />
        Demo mode: no PayPal account is charged. The plan is applied as if PayPal had confirmed the payment.
      </p>
    </div>
  );
}

/** With PayPal keys: PayPal's own buttons, from its JS SDK loaded when PayPal is chosen. */
function PaypalSdkButtons({
  clientId,
  flow,
  planType,
  userCount,
  problem,
}: {
  clientId: string;
  flow: ReturnType<typeof usePaypalFlow>;
  planType: PaidPlanType;
  userCount: number;
  problem: string | null;
}) {
  const container = useRef<HTMLDivElement>(null);
  const [sdk, setSdk] = useState<PaypalNamespace | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // The buttons are rendered once; their callbacks read the current plan and users from here.
  const latest = useRef({ flow, planType, userCount });
  useEffect(() => {
    latest.current = { flow, planType, userCount };
  });

  useEffect(() => {
    let cancelled = false;
    loadPaypalSdk(clientId).then(
      (ns) => !cancelled && setSdk(ns),
      () => !cancelled && setFailed(true),
    );
    return () => {
      cancelled = true;
    };
  }, [clientId, attempt]);

  useEffect(() => {
    if (!sdk || !container.current) return;
    const buttons = sdk.Buttons({
      style: { layout: 'vertical', color: 'gold', shape: 'rect', label: 'paypal', height: 44 },
      createOrder: () => latest.current.flow.createOrder(latest.current.planType, latest.current.userCount),
      onApprove: async ({ orderID }) => {
        await latest.current.flow.approve(orderID, latest.current.planType, latest.current.userCount);
      },
      onError: () =>
        toast({
          title: BILLING_MESSAGES.upgradeFailedTitle,
          description: BILLING_MESSAGES.upgradeFailed,
          variant: 'destructive',
        }),
    });
    void buttons.render(container.current).catch(() => setFailed(true));
    return () => void buttons.close().catch(() => undefined);
  }, [sdk]);

  if (failed) {
    return (
      <InlineLoadError
        onRetry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      >
        PayPal could not be loaded. Check your connection, or pay by card.
      </InlineLoadError>
    );
  }
  return (
    <div>
      {!sdk && <Skeleton className="h-11 w-full" />}
      {problem && sdk && <p className="text-sm text-fg-subtle">Correct the number of users to pay with PayPal.</p>}
      <div ref={container} hidden={problem !== null} aria-label="PayPal payment buttons" />
    </div>
  );
}

/** The PayPal payment method: its setup first, then the demo button or PayPal's buttons. */
export function PaypalPayment({ organizationId, planType, userCount, problem, onSucceeded }: PaypalPaymentProps) {
  const setup = usePaypalSetup(organizationId, true);
  const flow = usePaypalFlow({ organizationId, onSucceeded });

  if (setup.isPending) return <Skeleton aria-label="Loading PayPal" className="h-11 w-full" />;
  if (setup.isError) {
    return (
      <InlineLoadError onRetry={() => void setup.refetch()}>
        {serverMessage(setup.error, 'PayPal is not available right now. Please try again, or pay by card.')}
      </InlineLoadError>
    );
  }
  if (setup.data.demo) {
    return <DemoPaypalButton flow={flow} planType={planType} userCount={userCount} problem={problem} />;
  }
  if (!setup.data.clientId) {
    return (
      <p className="flex items-start gap-2 rounded-lg border border-red-200 dark:border-red-800 bg-red-50 dark:bg-red-950/40 px-3 py-3 text-sm text-red-800 dark:text-red-300">
        <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
        PayPal is not set up on this server. Please pay by card.
      </p>
    );
  }
  return (
    <PaypalSdkButtons
      clientId={setup.data.clientId}
      flow={flow}
      planType={planType}
      userCount={userCount}
      problem={problem}
    />
  );
}
