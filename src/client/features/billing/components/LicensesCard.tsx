import { formatCents, type License } from '@contract';
import { KeyRound } from 'lucide-react';

import { EmptyState, EmptyStateLink } from '@/components/EmptyState';
import { CardTableOrList, CardTableSkeleton, ListCard } from '@/components/ListCard';
import { ListState } from '@/components/ListState';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { useNow } from '@/lib/useNow';
import { RENEWAL_WARNING_DAYS, daysUntil, planName } from '../planState';

interface LicensesCardProps {
  licenses: License[] | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
}

/** Subscriptions renew; a one-time payment (PayPal, the demo provider) ends. */
function renewalWord(license: License) {
  return license.subscriptionId ? 'Renews' : 'Ends';
}

/** The renewal date, in red with "in N days" when 30 days or fewer remain (spec §9). */
function Renewal({ license, now }: { license: License; now: Date }) {
  if (!license.expirationDate) return <span className="text-fg-subtle">—</span>;
  const days = daysUntil(license.expirationDate, now);
  const soon = days <= RENEWAL_WARNING_DAYS;
  const word = renewalWord(license);
  const when =
    days < 0
      ? word === 'Renews'
        ? 'renewal overdue'
        : 'ended'
      : `${word.toLowerCase()} ${days === 0 ? 'today' : days === 1 ? 'in 1 day' : `in ${days} days`}`;
  return (
    <span
      className={cn('whitespace-nowrap', soon ? 'font-medium text-red-600 dark:text-red-400' : 'text-fg-secondary')}
    >
      {formatDate(license.expirationDate)}
      <span className={cn('block text-xs font-normal', !soon && 'text-fg-subtle')}>{when}</span>
    </span>
  );
}

function ProviderBadge({ license }: { license: License }) {
  if (license.provider !== 'demo') return null;
  return <Badge tone="yellow">Demo</Badge>;
}

/** The active licences: one row per purchase, with what it cost and when it renews or ends. */
export function LicensesCard({ licenses, isPending, isError, onRetry }: LicensesCardProps) {
  const now = useNow();
  return (
    <ListCard title="Licences" description="What this organization has bought. Prices are per licence, per month.">
      <ListState
        data={licenses}
        isPending={isPending}
        isError={isError}
        error={{ title: 'The licences could not be loaded', onRetry }}
        skeleton={
          <CardTableSkeleton label="Loading licences">
            <Skeleton className="h-4 w-28" />
            <Skeleton className="h-4 w-10" />
            <Skeleton className="ml-auto h-4 w-20" />
            <Skeleton className="hidden h-4 w-24 sm:block" />
          </CardTableSkeleton>
        }
        empty={
          <EmptyState
            icon={KeyRound}
            title="No active licences"
            className="py-10"
            action={<EmptyStateLink href="/checkout">Choose a plan</EmptyStateLink>}
          >
            Licences appear here once you subscribe to a plan: one for each person who signs in.
          </EmptyState>
        }
      >
        {(licenses) => (
          <CardTableOrList
            label="Licences"
            head={
              <>
                <TableHead className="pl-5 sm:pl-6">Plan</TableHead>
                <TableHead className="px-3 text-right">Quantity</TableHead>
                <TableHead className="px-3 text-right">Per licence</TableHead>
                <TableHead className="px-3 text-right">Total</TableHead>
                <TableHead className="px-3">Purchased</TableHead>
                <TableHead className="pr-5 pl-3 sm:pr-6">Renewal</TableHead>
              </>
            }
            rows={licenses.map((license) => (
              <TableRow key={license.id}>
                <TableCell className="pl-5 sm:pl-6">
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium text-fg">
                    {planName(license.planType)} <ProviderBadge license={license} />
                  </span>
                </TableCell>
                <TableCell className="px-3 text-right tabular-nums">{license.quantity}</TableCell>
                <TableCell className="px-3 text-right tabular-nums">{formatCents(license.pricePerLicense)}</TableCell>
                <TableCell className="px-3 text-right font-medium text-fg tabular-nums">
                  {formatCents(license.totalAmount)}
                </TableCell>
                <TableCell className="px-3 whitespace-nowrap">{formatDate(license.purchaseDate)}</TableCell>
                <TableCell className="pr-5 pl-3 sm:pr-6">
                  <Renewal license={license} now={now} />
                </TableCell>
              </TableRow>
            ))}
            items={licenses.map((license) => (
              <li key={license.id} className="space-y-2 px-5 py-4">
                <div className="flex items-center justify-between gap-3">
                  <span className="flex items-center gap-2 font-medium text-fg">
                    {planName(license.planType)} <ProviderBadge license={license} />
                  </span>
                  <span className="font-medium text-fg tabular-nums">{formatCents(license.totalAmount)}</span>
                </div>
                <p className="text-sm text-fg-muted">
                  {license.quantity} × {formatCents(license.pricePerLicense)} · purchased{' '}
                  {formatDate(license.purchaseDate)}
                </p>
                <p className="flex items-baseline justify-between gap-3 text-sm">
                  <span className="text-fg-subtle">Renewal</span>
                  <Renewal license={license} now={now} />
                </p>
              </li>
            ))}
          />
        )}
      </ListState>
    </ListCard>
  );
}
