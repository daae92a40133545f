import type { Plan } from '@contract';
import { ArrowRight, Check, Minus, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { TickList } from '@/components/TickList';
import { dollars, skeletonClass } from '../styles';
import { CtaLink } from './CtaLink';
import { PricesLoadFailed } from './PricesLoadFailed';
import type { PlansState } from './PricingSection';
import { SectionHeading } from './SectionHeading';

const licenceRange = (plan: Plan) =>
  `${plan.minUsers.toLocaleString('en-US')}–${plan.maxUsers.toLocaleString('en-US')} licences`;
const packagesText = (plan: Plan) =>
  plan.maxPackagesPerMonth < 0
    ? 'Unlimited packages'
    : `${plan.maxPackagesPerMonth.toLocaleString('en-US')} packages a month`;

const stepperClass =
  'inline-flex size-11 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-700 shadow-sm transition-colors hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4';

const promises = [
  'Unlimited recipients: residents, guests and employees are never counted',
  'Unlimited mailrooms and storage locations',
  'Add licences as your team grows',
];

function LicenceCalculator({
  plans,
  getStartedHref,
  onIntent,
}: {
  plans: Plan[];
  getStartedHref: string;
  onIntent?: (href: string) => void;
}) {
  const id = useId();
  const [planId, setPlanId] = useState(() => (plans.find((p) => p.mostPopular) ?? plans[0])!.id);
  const plan = plans.find((p) => p.id === planId) ?? plans[0]!;
  // what the person typed; the total uses it brought within the plan's range
  const [typed, setTyped] = useState('5');
  const parsed = Number.parseInt(typed, 10);
  const licences = Math.min(plan.maxUsers, Math.max(plan.minUsers, Number.isFinite(parsed) ? parsed : plan.minUsers));
  const change = (n: number) => setTyped(String(Math.min(plan.maxUsers, Math.max(plan.minUsers, n))));

  return (
    <div className="grid overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl shadow-indigo-900/5 lg:grid-cols-5">
      <fieldset className="p-6 sm:p-8 lg:col-span-3">
        <legend className="sr-only">Plan</legend>
        <p aria-hidden className="text-sm font-semibold text-slate-900">
          1. Choose a plan
        </p>
        <div className="mt-4 grid gap-3 sm:grid-cols-3">
          {plans.map((p) => (
            <label
              key={p.id}
              className={`relative flex cursor-pointer flex-col rounded-xl border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 has-[:focus-visible]:ring-offset-2 ${
                p.id === plan.id
                  ? 'border-indigo-600 bg-indigo-50/60 ring-1 ring-indigo-600'
                  : 'border-slate-200 hover:border-slate-300'
              }`}
            >
              <input
                type="radio"
                name={`${id}-plan`}
                value={p.id}
                checked={p.id === plan.id}
                onChange={() => {
                  setPlanId(p.id);
                  setTyped(String(Math.min(p.maxUsers, Math.max(p.minUsers, licences))));
                }}
                className="sr-only"
              />
              {p.mostPopular && (
                <span className="absolute -top-2.5 right-3 whitespace-nowrap rounded-full bg-indigo-600 px-2 py-0.5 text-[11px] font-semibold text-white shadow-sm">
                  Most Popular
                </span>
              )}
              <span className="font-semibold text-slate-900">{p.name}</span>
              <span className="mt-2 text-2xl font-bold tabular-nums text-slate-900">{dollars(p.pricePerUser)}</span>
              <span className="text-xs text-slate-600">per licence / month</span>
              <span className="mt-3 text-xs text-slate-600">{licenceRange(p)}</span>
              <span className="text-xs text-slate-600">{packagesText(p)}</span>
            </label>
          ))}
        </div>

        <label htmlFor={`${id}-licences`} className="mt-8 block text-sm font-semibold text-slate-900">
          2. How many licences?
        </label>
        <p id={`${id}-licences-hint`} className="mt-1 text-sm text-slate-500">
          One licence for each person at the desk who signs in. {plan.name}: {licenceRange(plan)}.
        </p>
        <div className="mt-3 flex items-center gap-2">
          <button
            type="button"
            aria-label="One licence fewer"
            disabled={licences <= plan.minUsers}
            onClick={() => change(licences - 1)}
            className={stepperClass}
          >
            <Minus aria-hidden />
          </button>
          <input
            id={`${id}-licences`}
            type="number"
            inputMode="numeric"
            min={plan.minUsers}
            max={plan.maxUsers}
            value={typed}
            aria-describedby={`${id}-licences-hint`}
            onChange={(e) => setTyped(e.target.value)}
            onBlur={() => setTyped(String(licences))}
            className="h-11 w-24 rounded-lg border border-slate-300 bg-white px-3 text-center text-lg font-semibold tabular-nums text-slate-900 shadow-sm focus-visible:border-indigo-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/40"
          />
          <button
            type="button"
            aria-label="One licence more"
            disabled={licences >= plan.maxUsers}
            onClick={() => change(licences + 1)}
            className={stepperClass}
          >
            <Plus aria-hidden />
          </button>
        </div>
      </fieldset>

      <div className="flex flex-col border-t border-slate-200 bg-slate-50 p-6 sm:p-8 lg:col-span-2 lg:border-l lg:border-t-0">
        <p className="text-sm font-semibold text-slate-900">Your monthly total</p>
        <p className="mt-3 flex items-baseline gap-2" aria-live="polite">
          <span className="text-5xl font-bold tracking-tight tabular-nums text-slate-900">
            {dollars(plan.pricePerUser * licences)}
          </span>
          <span className="text-sm text-slate-500">/ month</span>
        </p>
        <p className="mt-1 text-sm text-slate-500">
          {licences} {licences === 1 ? 'licence' : 'licences'} × {dollars(plan.pricePerUser)} on {plan.name}
        </p>
        <ul className="mt-6 flex-1 space-y-2.5 text-sm text-slate-700">
          {plan.features
            .filter((feature) => !/users$/.test(feature))
            .map((feature) => (
              <li key={feature} className="flex gap-2.5">
                <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-indigo-600" />
                {feature}
              </li>
            ))}
        </ul>
        <CtaLink href={getStartedHref} size="lg" className="mt-8 w-full" onIntent={onIntent}>
          Get Started <ArrowRight aria-hidden />
        </CtaLink>
        <p className="mt-3 text-center text-xs text-slate-500">7-day free trial first. No card required.</p>
      </div>
    </div>
  );
}

/** The licence-based pricing of /pricing (#pricing): pay per licence, with a calculator. */
export function LicencePricingSection({
  plans,
  getStartedHref,
  onIntent,
}: {
  plans: PlansState;
  getStartedHref: string;
  onIntent?: (href: string) => void;
}) {
  const reply = plans.data;
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-16 bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="pricing-title" eyebrow="Licence pricing" title="Pay per licence, not per recipient">
          A licence is one staff member who signs in. Everyone you receive mail for is free, however many there are.
        </SectionHeading>
        <TickList
          items={promises}
          icon={Check}
          className="mx-auto mt-8 flex max-w-3xl flex-col gap-x-6 gap-y-2 text-sm text-slate-700 sm:flex-row sm:flex-wrap sm:justify-center"
          itemClassName="flex items-start gap-1.5"
          iconClassName="mt-0.5 size-4 shrink-0 text-emerald-600"
        />
        <div className="mt-12">
          {reply ? (
            <LicenceCalculator plans={reply.plans} getStartedHref={getStartedHref} onIntent={onIntent} />
          ) : plans.failed ? (
            <PricesLoadFailed
              message="The prices could not be loaded just now."
              className="mx-auto flex h-[34rem] max-w-md flex-col items-center justify-center gap-4 text-center"
              onRetry={plans.retry}
            />
          ) : (
            <div role="status" aria-label="Loading prices">
              <div className={`h-[34rem] w-full rounded-2xl ${skeletonClass}`} />
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
