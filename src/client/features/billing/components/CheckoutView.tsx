import {
  BILLING_MESSAGES,
  CHECKOUT_DEFAULTS,
  PLAN_LIST,
  PLANS,
  YEARLY_DISCOUNT,
  formatCents,
  monthlyTotalCents,
  type MyOrganization,
  type PaidPlanType,
  type PlansReply,
} from '@contract';
import {
  CheckCircle2,
  CreditCard,
  FlaskConical,
  Info,
  Lock,
  Mail,
  ShieldCheck,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useSearch } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { InlineLoadError } from '@/components/ListState';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { Skeleton } from '@/components/ui/skeleton';
import { useMembers } from '@/lib/resources/organizations';
import { ApiError } from '@/lib/api';
import { useCreateCheckoutSession } from '../api/createCheckoutSession';
import { useLicenseSummary } from '../api/licenseSummary';
import { usePlans } from '../api/plans';
import { useUpgradeComplete } from '../hooks/useUpgradeComplete';
import { clampSeats, offeredMethods, seatTextProblem, type PaymentMethod } from '../planState';
import { ChoiceTile } from './ChoiceTile';
import { ChosenPlanBadge, MostPopularBadge } from './PlanBadges';
import { PaypalPayment } from './PaypalPayment';
import { QuantityInput } from './QuantityInput';

type Cycle = 'monthly' | 'yearly';

const USERS_ID = 'checkout-users';
const yearlyPercent = `${Math.round(YEARLY_DISCOUNT * 100)}%`;

/** Members cannot buy: they are told who can. */
function AdminsOnly({ organization }: { organization: MyOrganization }) {
  return (
    <Card className="mx-auto max-w-lg px-6 py-10 text-center">
      <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-surface-muted text-fg-subtle">
        <Lock aria-hidden className="size-6" />
      </span>
      <h2 className="mt-4 text-lg font-semibold text-fg">Only admins can change the plan</h2>
      <p className="mt-1 text-sm text-fg-subtle">
        Ask an admin of {organization.name} to choose a plan. You can keep working with everything your role allows.
      </p>
      <Button asChild variant="outline" className="mt-6">
        <Link href="/dashboard">Back to the dashboard</Link>
      </Button>
    </Card>
  );
}

/** No payment provider is set up on this server (decision 028): who to write to instead. */
function NoPaymentMethod({ salesEmail }: { salesEmail: string }) {
  return (
    <div role="status" className="space-y-3 rounded-lg border border-line bg-surface-subtle px-4 py-4 text-sm">
      <p className="flex items-start gap-2 font-semibold text-fg">
        <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-fg-subtle" />
        {BILLING_MESSAGES.noPaymentMethodTitle}
      </p>
      <p className="text-fg-muted">{BILLING_MESSAGES.noPaymentMethod(salesEmail)}</p>
      <Button asChild variant="outline" className="w-full">
        <a href={`mailto:${salesEmail}?subject=${encodeURIComponent('Choosing a Pigeonhole plan')}`}>
          <Mail aria-hidden /> Contact sales
        </a>
      </Button>
    </div>
  );
}

function PlanTiles({ planType, onChoose }: { planType: PaidPlanType; onChoose: (plan: PaidPlanType) => void }) {
  return (
    <fieldset className="space-y-3">
      <legend className="sr-only">Plan</legend>
      {PLAN_LIST.map((plan) => {
        const selected = plan.id === planType;
        return (
          <ChoiceTile
            key={plan.id}
            name="plan"
            value={plan.id}
            checked={selected}
            onSelect={() => onChoose(plan.id)}
            label={`${plan.name}: ${formatCents(plan.pricePerUser)} per user per month`}
          >
            <span className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
              <span className="min-w-0 flex-1">
                <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="text-base font-semibold text-fg">{plan.name}</span>
                  {plan.mostPopular && <MostPopularBadge />}
                  {selected && <ChosenPlanBadge>Selected</ChosenPlanBadge>}
                </span>
                <span className="mt-0.5 block text-sm text-fg-subtle">{plan.description}</span>
              </span>
              <span className="shrink-0 sm:text-right">
                <span className="text-xl font-bold text-fg tabular-nums">{formatCents(plan.pricePerUser)}</span>
                <span className="text-sm text-fg-subtle"> /user/month</span>
              </span>
            </span>
            <ul className="mt-3 grid gap-x-4 gap-y-1.5 text-sm text-fg-muted sm:grid-cols-3">
              {plan.features.slice(0, 3).map((feature) => (
                <li key={feature} className="flex items-start gap-1.5">
                  <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400" />
                  {feature}
                </li>
              ))}
            </ul>
          </ChoiceTile>
        );
      })}
    </fieldset>
  );
}

function Checkout({ organization }: { organization: MyOrganization }) {
  const plans = usePlans();
  const members = useMembers(organization.id);
  const summary = useLicenseSummary(organization.id);
  const memberCount = members.data?.length ?? 0;
  const search = useSearch();
  const cancelled = new URLSearchParams(search).has('cancelled');

  const [planType, setPlanType] = useState<PaidPlanType>(CHECKOUT_DEFAULTS.planType);
  const [usersText, setUsersText] = useState(String(CHECKOUT_DEFAULTS.users));
  const [cycle, setCycle] = useState<Cycle>('monthly');
  const [chosenMethod, setMethod] = useState<PaymentMethod>(CHECKOUT_DEFAULTS.method);

  const plan = PLANS[planType];
  const users = Number(usersText);
  const problem = seatTextProblem(planType, usersText, memberCount);
  const total = problem ? null : monthlyTotalCents(planType, users);
  // Only the choices this server takes (decision 028); the one chosen, or the first offered.
  const offered = plans.data ? offeredMethods(plans.data.providers) : [];
  const method: PaymentMethod | null = offered.includes(chosenMethod) ? chosenMethod : (offered[0] ?? null);
  const cardDemo = plans.data?.providers.card === 'demo';
  // The server says whether a card checkout keeps the rest of the trial (Stripe, 49 h or more
  // left): only then is "you won't be charged until the trial ends" true. PayPal charges at once.
  const cardStartsTrial = method === 'card' && Boolean(summary.data?.cardTrialEndsAt);

  const checkout = useCreateCheckoutSession(organization.id);
  const upgraded = useUpgradeComplete(organization.id);
  const [paid, setPaid] = useState(false);
  const redirecting = checkout.isPending || checkout.isSuccess;

  const choosePlan = (next: PaidPlanType) => {
    setPlanType(next);
    const typed = Number.parseInt(usersText, 10);
    setUsersText(String(clampSeats(next, typed, memberCount)));
  };

  const payByCard = () => {
    if (problem) return;
    checkout.mutate(
      { planId: planType, quantity: users },
      {
        onError: (err) =>
          toast({
            title: BILLING_MESSAGES.checkoutFailed,
            description: err instanceof ApiError ? err.reply?.message : undefined,
            variant: 'destructive',
          }),
      },
    );
  };

  const onPaypalSucceeded = (paidPlan: PaidPlanType) => {
    setPaid(true);
    upgraded(paidPlan);
  };

  return (
    <div className="space-y-6">
      {cancelled && (
        <p
          role="status"
          className="flex items-start gap-2 rounded-lg border border-line bg-surface px-4 py-3 text-sm text-fg-secondary"
        >
          <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-fg-subtle" />
          Checkout was cancelled and nothing was charged. Choose a plan again whenever you are ready.
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>Choose a plan</CardTitle>
              <CardDescription>Priced per user, per month. Change or cancel anytime.</CardDescription>
            </CardHeader>
            <CardContent>
              <PlanTiles planType={planType} onChoose={choosePlan} />
            </CardContent>
          </Card>

          <Card>
            <CardContent className="grid gap-6 sm:grid-cols-2">
              <div className="space-y-1.5">
                <Label htmlFor={USERS_ID}>Number of users</Label>
                <QuantityInput
                  id={USERS_ID}
                  value={usersText}
                  onChange={setUsersText}
                  min={plan.minUsers}
                  max={plan.maxUsers || 1000}
                  unit="users"
                  invalid={problem !== null}
                  describedBy={`${USERS_ID}-hint${problem ? ` ${USERS_ID}-error` : ''}`}
                />
                <p id={`${USERS_ID}-hint`} className="text-xs text-fg-subtle">
                  {BILLING_MESSAGES.minimumUsers(plan.minUsers)} · up to {plan.maxUsers.toLocaleString('en-US')} on{' '}
                  {plan.name}
                  {memberCount > 0 && ` · ${memberCount} ${memberCount === 1 ? 'member' : 'members'} today`}
                </p>
                {problem && (
                  <p id={`${USERS_ID}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
                    {problem}
                  </p>
                )}
              </div>
              <fieldset className="space-y-1.5">
                <legend className="text-sm font-medium text-fg-secondary">Billing cycle</legend>
                <div className="grid grid-cols-2 gap-2">
                  <ChoiceTile
                    name="cycle"
                    value="monthly"
                    label="Monthly"
                    checked={cycle === 'monthly'}
                    onSelect={() => setCycle('monthly')}
                    className="p-3 sm:p-3"
                  >
                    <span className="block text-sm font-medium text-fg">Monthly</span>
                    <span className="mt-1 block text-xs text-fg-subtle">Month to month</span>
                  </ChoiceTile>
                  <ChoiceTile
                    name="cycle"
                    value="yearly"
                    label={`Yearly, save ${yearlyPercent}`}
                    checked={cycle === 'yearly'}
                    onSelect={() => setCycle('yearly')}
                    className="p-3 sm:p-3"
                  >
                    <span className="block text-sm font-medium text-fg">Yearly</span>
                    <Badge tone="green" className="mt-1">
                      Save {yearlyPercent}
                    </Badge>
                  </ChoiceTile>
                </div>
              </fieldset>
            </CardContent>
          </Card>
        </div>

        <Card role="region" className="lg:sticky lg:top-6" aria-labelledby="payment-summary-title">
          <CardHeader>
            <CardTitle id="payment-summary-title">Payment summary</CardTitle>
            <CardDescription>{organization.name}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-5">
            <dl className="space-y-2 text-sm">
              <div className="flex items-baseline justify-between gap-3">
                <dt className="text-fg-muted">{plan.name} plan</dt>
                <dd className="text-fg-muted">{formatCents(plan.pricePerUser)} per user</dd>
              </div>
              <div className="flex items-baseline justify-between gap-3">
                <dt className="text-fg-muted">
                  {problem ? '–' : users} {users === 1 ? 'user' : 'users'} × {formatCents(plan.pricePerUser)}
                </dt>
                <dd className="font-medium text-fg tabular-nums">{total === null ? '–' : formatCents(total)}</dd>
              </div>
              <div className="flex items-baseline justify-between gap-3 border-t border-line pt-3">
                <dt className="font-semibold text-fg">Monthly total</dt>
                <dd className="text-right">
                  <span className="text-2xl font-bold text-fg tabular-nums">
                    {total === null ? '–' : formatCents(total)}
                  </span>
                  <span className="text-sm text-fg-subtle"> /month</span>
                </dd>
              </div>
            </dl>
            {cycle === 'yearly' && total !== null && (
              <p className="rounded-lg bg-surface-subtle px-3 py-2 text-xs text-fg-muted">
                Yearly billing saves {yearlyPercent}: {formatCents(Math.round(total * 12 * (1 - YEARLY_DISCOUNT)))} a
                year instead of {formatCents(total * 12)}. Payments here are taken monthly; the total above is what you
                pay each month.
              </p>
            )}

            <div>
              <h3 className="text-sm font-semibold text-fg">Included in {plan.name}</h3>
              <ul className="mt-2 space-y-1.5 text-sm text-fg-muted">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex items-start gap-2">
                    <CheckCircle2
                      aria-hidden
                      className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
                    />
                    {feature}
                  </li>
                ))}
              </ul>
            </div>

            {cardStartsTrial && (
              <div className="rounded-lg border border-emerald-200 dark:border-emerald-800 bg-emerald-50 dark:bg-emerald-950/40 px-3 py-2.5 text-sm">
                <p className="flex items-center gap-1.5 font-semibold text-emerald-900 dark:text-emerald-300">
                  <ShieldCheck aria-hidden className="size-4 text-emerald-600 dark:text-emerald-400" />
                  {BILLING_MESSAGES.trialNoteTitle}
                </p>
                <p className="mt-0.5 text-emerald-800 dark:text-emerald-300">{BILLING_MESSAGES.trialNote}</p>
              </div>
            )}

            <PaymentSection
              plans={plans}
              offered={offered}
              method={method}
              onChoose={setMethod}
              paid={paid}
              redirecting={redirecting}
              card={
                <div className="space-y-2">
                  <Button size="lg" className="w-full" disabled={problem !== null || redirecting} onClick={payByCard}>
                    <Lock aria-hidden />
                    {redirecting ? 'Opening secure checkout…' : cardStartsTrial ? 'Start Free Trial' : 'Subscribe'}
                  </Button>
                  {cardDemo && (
                    <p className="flex items-start gap-1.5 text-xs text-fg-subtle">
                      <FlaskConical aria-hidden className="mt-0.5 size-3.5 shrink-0" />
                      Demo mode: you confirm on a demo payment page and no card is charged.
                    </p>
                  )}
                </div>
              }
              paypal={
                <PaypalPayment
                  organizationId={organization.id}
                  planType={planType}
                  userCount={users}
                  problem={problem}
                  onSucceeded={onPaypalSucceeded}
                />
              }
            />
          </CardContent>
        </Card>
      </div>
      {/* Promises a payment provider: only where one takes payments. */}
      {method !== null && (
        <p className="flex items-center justify-center gap-1.5 text-center text-xs text-fg-subtle">
          <Lock aria-hidden className="size-3.5 shrink-0" />
          {BILLING_MESSAGES.checkoutFooter}
        </p>
      )}
    </div>
  );
}

/**
 * The payment method choice and its button: only the methods the server offers, a designed
 * notice when it offers none, a placeholder while the plan table loads.
 */
function PaymentSection({
  plans,
  offered,
  method,
  onChoose,
  paid,
  redirecting,
  card,
  paypal,
}: {
  plans: { data?: PlansReply; isPending: boolean; isError: boolean; refetch: () => unknown };
  offered: PaymentMethod[];
  method: PaymentMethod | null;
  onChoose: (method: PaymentMethod) => void;
  paid: boolean;
  redirecting: boolean;
  card: ReactNode;
  paypal: ReactNode;
}) {
  if (plans.isPending) return <Skeleton aria-label="Loading payment methods" className="h-32 w-full" />;
  if (plans.isError || !plans.data) {
    // The plan table's payment choices: nothing to pay with until they are loaded.
    return (
      <InlineLoadError onRetry={() => void plans.refetch()}>
        The payment methods could not be loaded. Check your connection and try again.
      </InlineLoadError>
    );
  }
  if (method === null) return <NoPaymentMethod salesEmail={plans.data.salesEmail} />;
  return (
    <>
      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm font-semibold text-fg">Payment method</legend>
        <div className="grid gap-2">
          {METHODS.filter((tile) => offered.includes(tile.method)).map((tile) => (
            <MethodTile
              key={tile.method}
              {...tile}
              checked={method === tile.method}
              onSelect={onChoose}
              // once the card's secure checkout is opening, PayPal can no longer be chosen
              disabled={paid || (tile.method === 'paypal' && redirecting)}
            />
          ))}
        </div>
      </fieldset>
      {method === 'card' ? card : paypal}
    </>
  );
}

/** The payment methods, in the order offered. */
const METHODS: readonly { method: PaymentMethod; label: string; icon: LucideIcon; note: string }[] = [
  { method: 'card', label: 'Credit Card', icon: CreditCard, note: 'On a secure checkout page' },
  { method: 'paypal', label: 'PayPal', icon: Wallet, note: 'Pays one month at a time' },
];

interface MethodTileProps {
  method: PaymentMethod;
  label: string;
  icon: LucideIcon;
  /** How that method pays, under its name. */
  note: string;
  checked: boolean;
  onSelect: (method: PaymentMethod) => void;
  disabled: boolean;
}

/** One payment method to choose. */
function MethodTile({ method, label, icon: Icon, note, checked, onSelect, disabled }: MethodTileProps) {
  return (
    <ChoiceTile
      name="method"
      value={method}
      label={label}
      checked={checked}
      onSelect={() => onSelect(method)}
      disabled={disabled}
      className="p-3 sm:p-3"
    >
      <span className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium text-fg">{label}</span>
        <Icon aria-hidden className="size-4 text-fg-subtle" />
      </span>
      <span className="mt-0.5 block text-xs text-fg-subtle">{note}</span>
    </ChoiceTile>
  );
}

/** /checkout (spec §2, §4): plan, users and billing cycle on the left; the summary and payment on the right. */
export function CheckoutView({ organization }: { organization: MyOrganization }) {
  if (organization.role !== 'admin') return <AdminsOnly organization={organization} />;
  return <Checkout organization={organization} />;
}
