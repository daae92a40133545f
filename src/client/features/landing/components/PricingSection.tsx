import type { Plan, PlansReply } from '@contract';
import { Check, Mail, Sparkles } from 'lucide-react';
import { TickList } from '@/components/TickList';
import { dollars, skeletonClass } from '../styles';
import { CtaLink } from './CtaLink';
import { PricesLoadFailed } from './PricesLoadFailed';
import { SectionHeading } from './SectionHeading';

export interface PlansState {
  data: PlansReply | undefined;
  failed: boolean;
  retry: () => void;
}

/** The mail Contact Sales opens: to the configured sales address, about the plan. */
export function salesMailto(salesEmail: string, plan: Pick<Plan, 'name'>) {
  const subject = encodeURIComponent(`Pigeonhole ${plan.name}`);
  return `mailto:${salesEmail}?subject=${subject}`;
}

function PlanCard({
  plan,
  salesEmail,
  onIntent,
}: {
  plan: Plan;
  salesEmail: string;
  onIntent?: (href: string) => void;
}) {
  const contactSales = plan.id === 'enterprise';
  return (
    <li
      aria-labelledby={`plan-${plan.id}`}
      className={
        plan.mostPopular
          ? 'relative flex flex-col rounded-2xl border-2 border-indigo-600 bg-white p-7 shadow-xl shadow-indigo-900/10 lg:-my-4 lg:py-11'
          : 'relative flex flex-col rounded-2xl border border-slate-200 bg-white p-7 shadow-sm'
      }
    >
      {plan.mostPopular && (
        <p className="absolute -top-3.5 left-1/2 inline-flex -translate-x-1/2 items-center gap-1 whitespace-nowrap rounded-full bg-indigo-600 px-3 py-1 text-xs font-semibold text-white shadow-sm">
          <Sparkles aria-hidden className="size-3.5" /> Most Popular
        </p>
      )}
      <h3 id={`plan-${plan.id}`} className="text-lg font-semibold text-slate-900">
        {plan.name}
      </h3>
      <p className="mt-1 text-sm text-slate-500">{plan.description}</p>
      <p className="mt-6 flex items-baseline gap-1.5">
        <span className="text-4xl font-bold tracking-tight text-slate-900 tabular-nums">
          {dollars(plan.pricePerUser)}
        </span>
        <span className="text-sm text-slate-500">per user / month</span>
      </p>
      <div className="mt-6">
        {contactSales ? (
          <CtaLink href={salesMailto(salesEmail, plan)} variant="outline" size="lg" className="w-full">
            <Mail aria-hidden /> Contact Sales
          </CtaLink>
        ) : (
          <CtaLink
            href="/auth"
            variant={plan.mostPopular ? 'primary' : 'outline'}
            size="lg"
            className="w-full"
            onIntent={onIntent}
          >
            Start Free Trial
          </CtaLink>
        )}
      </div>
      <TickList
        items={plan.features}
        icon={Check}
        className="mt-7 space-y-3 border-t border-slate-100 pt-7 text-sm text-slate-700"
        itemClassName="flex gap-2.5"
        iconClassName="mt-0.5 size-4 shrink-0 text-indigo-600"
      />
    </li>
  );
}

/** Three cards of the same height as the plans, while they load: nothing below moves when they arrive. */
function PlanCardsSkeleton() {
  return (
    <div role="status" aria-label="Loading plans" className="mt-16 grid gap-6 lg:grid-cols-3">
      {[0, 1, 2].map((i) => (
        <div key={i} className="h-[30rem] rounded-2xl border border-slate-200 bg-white p-7">
          <div className={`h-6 w-28 ${skeletonClass} rounded-md`} />
          <div className={`mt-3 h-4 w-40 ${skeletonClass} rounded-md`} />
          <div className={`mt-8 h-10 w-32 ${skeletonClass} rounded-md`} />
          <div className={`mt-7 h-11 w-full ${skeletonClass} rounded-md`} />
          <div className="mt-8 space-y-3">
            {[0, 1, 2, 3, 4].map((j) => (
              <div key={j} className={`h-4 w-4/5 ${skeletonClass} rounded-md`} />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

/** Pricing (#pricing): the server's plan table, per user per month, each with its 7-day trial. */
export function PricingSection({ plans, onIntent }: { plans: PlansState; onIntent?: (href: string) => void }) {
  const reply = plans.data;
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-16 bg-white py-20 sm:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading id="pricing-title" eyebrow="Pricing" title="Simple pricing per user">
          {reply
            ? `Start with a ${reply.trial.days}-day free trial for up to ${reply.trial.seats} users and ${reply.trial.maxPackagesPerMonth.toLocaleString('en-US')} packages a month. No card required. Then choose the plan that fits.`
            : 'Start with a free trial. No card required. Then choose the plan that fits.'}
        </SectionHeading>
        {reply ? (
          <ul className="mt-16 grid gap-6 lg:grid-cols-3">
            {reply.plans.map((plan) => (
              <PlanCard key={plan.id} plan={plan} salesEmail={reply.salesEmail} onIntent={onIntent} />
            ))}
          </ul>
        ) : plans.failed ? (
          <PricesLoadFailed
            message="The plans could not be loaded just now."
            className="mx-auto mt-16 flex h-[30rem] max-w-md flex-col items-center justify-center gap-4 text-center"
            onRetry={plans.retry}
          />
        ) : (
          <PlanCardsSkeleton />
        )}
        <p className="mt-12 text-center text-sm text-slate-500">
          Prices in {reply?.currency ?? 'USD'}, billed monthly for the number of users you choose. Cancel anytime.
        </p>
      </div>
    </section>
  );
}
