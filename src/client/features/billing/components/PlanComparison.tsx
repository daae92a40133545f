import {
  BILLING_MESSAGES,
  CHECKOUT_DEFAULTS,
  PLAN_LIST,
  formatCents,
  monthlyTotalCents,
  type LicenseSummary,
  type PaidPlanType,
  type Plan,
} from '@contract';
import { CheckCircle2, Lock } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { TickList } from '@/components/TickList';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api';
import { cn } from '@/lib/cn';
import { useCreateCheckoutSession } from '../api/createCheckoutSession';
import { clampSeats, seatTextProblem } from '../planState';
import { ChosenPlanBadge, MostPopularBadge } from './PlanBadges';
import { QuantityInput } from './QuantityInput';

interface PlanComparisonProps {
  organizationId: string;
  summary: Pick<LicenseSummary, 'planType' | 'subscriptionStatus' | 'seats' | 'seatsUsed'>;
}

function PlanColumn({
  plan,
  current,
  initialQuantity,
  seatsUsed,
  busy,
  onSubscribe,
}: {
  plan: Plan;
  current: boolean;
  initialQuantity: number;
  seatsUsed: number;
  busy: boolean;
  onSubscribe: (planType: PaidPlanType, quantity: number) => void;
}) {
  const [quantity, setQuantity] = useState(String(initialQuantity));
  const problem = seatTextProblem(plan.id, quantity, seatsUsed);
  const id = `licences-${plan.id}`;
  return (
    <section
      aria-label={plan.name}
      className={cn(
        'relative flex flex-col rounded-lg border p-5',
        plan.mostPopular
          ? 'border-indigo-300 dark:border-indigo-700 ring-1 ring-indigo-300 dark:ring-indigo-700'
          : 'border-line',
      )}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-base font-semibold text-fg">{plan.name}</h3>
        {plan.mostPopular && <MostPopularBadge />}
        {current && <ChosenPlanBadge>Current plan</ChosenPlanBadge>}
      </div>
      <p className="mt-0.5 text-sm text-fg-subtle">{plan.description}</p>
      <p className="mt-3">
        <span className="text-3xl font-bold text-fg tabular-nums">{formatCents(plan.pricePerUser)}</span>
        <span className="text-sm text-fg-subtle"> /licence/month</span>
      </p>
      <TickList
        items={plan.features}
        icon={CheckCircle2}
        className="mt-4 flex-1 space-y-1.5 text-sm text-fg-muted"
        itemClassName="flex items-start gap-2"
        iconClassName="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
      />
      <div className="mt-5 space-y-1.5 border-t border-line-subtle pt-4">
        <Label htmlFor={id}>Licences</Label>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <QuantityInput
            id={id}
            value={quantity}
            onChange={setQuantity}
            min={Math.max(1, plan.minUsers)}
            max={plan.maxUsers}
            unit={`${plan.name} licences`}
            invalid={problem !== null}
            describedBy={`${id}-note`}
          />
          <p className="text-sm text-fg-muted tabular-nums">
            {problem ? '–' : formatCents(monthlyTotalCents(plan.id, Number(quantity)))}
            <span className="text-fg-subtle"> /month</span>
          </p>
        </div>
        <p id={`${id}-note`} className={cn('text-xs', problem ? 'text-red-600 dark:text-red-400' : 'text-fg-subtle')}>
          {problem ?? `${plan.minUsers} to ${plan.maxUsers.toLocaleString('en-US')} licences`}
        </p>
      </div>
      <Button
        className="mt-4 w-full"
        variant={plan.mostPopular ? 'default' : 'outline'}
        disabled={problem !== null || busy}
        onClick={() => onSubscribe(plan.id, Number(quantity))}
        aria-label={`Subscribe to ${plan.name}`}
      >
        <Lock aria-hidden /> Subscribe
      </Button>
    </section>
  );
}

/** Spec §2 "Billing screens": the plans side by side, each with its own licence quantity and Subscribe. */
export function PlanComparison({ organizationId, summary }: PlanComparisonProps) {
  const checkout = useCreateCheckoutSession(organizationId);
  const activePlan = summary.subscriptionStatus === 'active' ? summary.planType : null;

  const subscribe = (planId: PaidPlanType, quantity: number) =>
    checkout.mutate(
      { planId, quantity },
      {
        onError: (err) =>
          toast({
            title: BILLING_MESSAGES.checkoutFailed,
            description: err instanceof ApiError ? err.reply?.message : undefined,
            variant: 'destructive',
          }),
      },
    );

  const initialQuantity = (planId: PaidPlanType) =>
    clampSeats(
      planId,
      activePlan === planId && summary.seats > 0 ? summary.seats : CHECKOUT_DEFAULTS.users,
      summary.seatsUsed,
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Plans</CardTitle>
        <CardDescription>
          One licence per person who signs in. Subscribing opens a secure checkout; you can change seats later.
        </CardDescription>
      </CardHeader>
      <div className="grid gap-4 p-5 sm:p-6 lg:grid-cols-3">
        {PLAN_LIST.map((plan) => (
          <PlanColumn
            key={plan.id}
            plan={plan}
            current={activePlan === plan.id}
            initialQuantity={initialQuantity(plan.id)}
            seatsUsed={summary.seatsUsed}
            busy={checkout.isPending || checkout.isSuccess}
            onSubscribe={subscribe}
          />
        ))}
      </div>
    </Card>
  );
}
