import type { HistoryStats } from '@contract';
import { Clock, Inbox, PackageCheck, TrendingUp, type LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { StatCardHead } from '@/components/StatCardHead';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';

const count = new Intl.NumberFormat();

const cards: {
  label: string;
  icon: LucideIcon;
  iconClass: string;
  value: (s: HistoryStats) => string;
  hint: string;
}[] = [
  {
    label: 'Total Items',
    icon: Inbox,
    iconClass: 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400',
    value: (s) => count.format(s.totalItems),
    hint: 'Logged in this view',
  },
  {
    label: 'Delivered',
    icon: PackageCheck,
    iconClass: 'bg-emerald-50 dark:bg-emerald-950/40 text-emerald-600 dark:text-emerald-400',
    value: (s) => count.format(s.delivered),
    hint: 'Handed over',
  },
  {
    label: 'Pending',
    icon: Clock,
    iconClass: 'bg-amber-50 dark:bg-amber-950/40 text-amber-600 dark:text-amber-400',
    value: (s) => count.format(s.pending),
    hint: 'Not yet collected',
  },
  {
    label: 'Delivery Rate',
    icon: TrendingUp,
    iconClass: 'bg-sky-50 dark:bg-sky-950/40 text-sky-600 dark:text-sky-400',
    value: (s) => `${s.deliveryRate}%`,
    hint: 'Delivered of all items',
  },
];

interface HistoryStatCardsProps {
  data: HistoryStats | undefined;
  isLoading: boolean;
  /** Showing the previous filter's numbers while the new ones load. */
  isStale: boolean;
}

/** Total Items, Delivered, Pending and Delivery Rate over the whole filter (server-computed). */
export function HistoryStatCards({ data, isLoading, isStale }: HistoryStatCardsProps) {
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" aria-busy={isLoading || isStale || undefined}>
      {cards.map(({ label, icon, iconClass, value, hint }) => (
        <Card key={label} role="group" aria-label={label} className="p-4 sm:p-5">
          <StatCardHead label={label} icon={icon} iconClass={iconClass} />
          {isLoading ? (
            <Skeleton className="mt-1 h-9 w-20" />
          ) : (
            <p
              data-stat-value
              className={cn(
                'mt-1 text-2xl font-semibold tracking-tight text-fg transition-opacity sm:text-3xl',
                isStale && 'opacity-50',
              )}
            >
              {data ? value(data) : '–'}
            </p>
          )}
          <p className="mt-1 text-xs text-fg-subtle">{hint}</p>
        </Card>
      ))}
    </div>
  );
}
