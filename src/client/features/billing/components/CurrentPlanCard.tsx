import { formatCents, type LicenseSummary } from '@contract';
import { ArrowUpRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { LoadError } from '@/components/ListState';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { useNow } from '@/lib/useNow';
import { daysLeftText, packagesText, planName, seatsText } from '../planState';
import { PlanStatusBadge } from './PlanStatusBadge';
import { PortalAction } from './PortalAction';

interface CurrentPlanCardProps {
  organizationId: string;
  summary: LicenseSummary | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
}

function Figure({ label, value, note, warn }: { label: string; value: ReactNode; note?: ReactNode; warn?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-fg-subtle uppercase">{label}</dt>
      <dd
        className={cn('mt-1 text-lg font-semibold text-fg tabular-nums', warn && 'text-amber-700 dark:text-amber-300')}
      >
        {value}
      </dd>
      {note && <dd className="text-xs text-fg-subtle">{note}</dd>}
    </div>
  );
}

function TrialLine({ summary }: { summary: LicenseSummary }) {
  const now = useNow();
  if (summary.subscriptionStatus !== 'trial') return null;
  const ended = summary.trialEndDate !== null && new Date(summary.trialEndDate).getTime() <= now.getTime();
  if (ended) {
    return (
      <p className="text-sm font-medium text-red-700 dark:text-red-300">
        Your free trial ended{summary.trialEndDate ? ` on ${formatDate(summary.trialEndDate)}` : ''}.
      </p>
    );
  }
  return (
    <p
      className={cn(
        'text-sm',
        summary.daysLeft <= 3 ? 'font-medium text-amber-800 dark:text-amber-300' : 'text-fg-muted',
      )}
    >
      {daysLeftText(summary.daysLeft)} in your free trial
      {summary.trialEndDate ? ` (ends ${formatDate(summary.trialEndDate)})` : ''}.
    </p>
  );
}

/** The plan in force: name, status, trial days, seats, packages this month, billing dates and the portal. */
export function CurrentPlanCard({ organizationId, summary, isPending, isError, onRetry }: CurrentPlanCardProps) {
  if (isPending) {
    return (
      <Card aria-busy aria-label="Current plan" className="space-y-5 p-5 sm:p-6">
        <div className="space-y-2">
          <Skeleton className="h-3 w-24" />
          <Skeleton className="h-7 w-48" />
        </div>
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="space-y-2">
              <Skeleton className="h-3 w-20" />
              <Skeleton className="h-6 w-16" />
            </div>
          ))}
        </div>
      </Card>
    );
  }
  if (isError || !summary) {
    return (
      <Card aria-label="Current plan">
        <LoadError title="Your plan could not be loaded" onRetry={onRetry}>
          <p>Check your connection and try again.</p>
        </LoadError>
      </Card>
    );
  }

  const onTrial = summary.planType === 'trial';
  const full = summary.seatsAvailable === 0;
  const lastPayment =
    summary.lastPaymentDate && summary.lastPaymentAmount !== null
      ? `${formatCents(summary.lastPaymentAmount)}`
      : 'None yet';

  return (
    <Card role="group" aria-label="Current plan" className="overflow-hidden">
      <div className="flex flex-col gap-4 p-5 sm:flex-row sm:items-start sm:justify-between sm:p-6">
        <div className="min-w-0 space-y-1">
          <p className="text-xs font-medium tracking-wide text-fg-subtle uppercase">Current plan</p>
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-2xl font-semibold text-fg">{planName(summary.planType)}</h2>
            <PlanStatusBadge organization={summary} />
          </div>
          <TrialLine summary={summary} />
          {!onTrial && summary.monthlyTotal > 0 && (
            <p className="text-sm text-fg-muted">
              {formatCents(summary.monthlyTotal)} a month · {formatCents(summary.pricePerLicense)} per seat
            </p>
          )}
        </div>
        <Button asChild className="shrink-0 max-sm:w-full">
          <Link href="/checkout">
            {onTrial ? 'Choose a plan' : 'Change plan'} <ArrowUpRight aria-hidden />
          </Link>
        </Button>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-5 border-t border-line-subtle px-5 py-5 sm:px-6 lg:grid-cols-4">
        <Figure
          label="Seats used"
          value={summary.seats < 0 ? `${summary.seatsUsed}` : `${summary.seatsUsed} of ${summary.seats}`}
          note={summary.seats < 0 ? 'Unlimited seats' : undefined}
        />
        <Figure
          label="Seats available"
          value={summary.seatsAvailable < 0 ? 'Unlimited' : seatsText(summary.seatsAvailable)}
          note={full ? 'All seats are taken' : undefined}
          warn={full}
        />
        <Figure label="Packages this month" value={packagesText(summary)} />
        <Figure
          label="Next billing date"
          value={summary.nextBillingDate ? formatDate(summary.nextBillingDate) : '—'}
          note={
            summary.lastPaymentDate
              ? `Last payment ${lastPayment} on ${formatDate(summary.lastPaymentDate)}`
              : 'No payments yet'
          }
        />
      </dl>
      <div className="border-t border-line-subtle bg-surface-subtle/50 px-5 py-4 sm:px-6">
        <PortalAction organizationId={organizationId} customerId={summary.customerId} />
      </div>
    </Card>
  );
}
