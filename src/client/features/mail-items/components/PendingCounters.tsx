import type { PendingSummary } from '@contract';
import { AlertTriangle, BellRing, Clock, type LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { StatCardHead } from '@/components/StatCardHead';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';

const counters: { label: string; key: keyof PendingSummary; icon: LucideIcon; iconClass: string; hint: string }[] = [
  {
    label: 'Total Pending',
    key: 'totalPending',
    icon: Clock,
    iconClass: 'bg-amber-50 dark:bg-amber-950/40 text-amber-600 dark:text-amber-400',
    hint: 'Waiting to be collected',
  },
  {
    label: 'Overdue',
    key: 'overdue',
    icon: AlertTriangle,
    iconClass: 'bg-red-50 dark:bg-red-950/40 text-red-600 dark:text-red-400',
    hint: 'Arrived over 3 days ago',
  },
  {
    label: 'Notified',
    key: 'notified',
    icon: BellRing,
    iconClass: 'bg-sky-50 dark:bg-sky-950/40 text-sky-600 dark:text-sky-400',
    hint: 'Recipient has been told',
  },
];

/** Spec §2: Total Pending, Overdue and Notified. */
export function PendingCounters({ data, isLoading }: { data: PendingSummary | undefined; isLoading: boolean }) {
  return (
    <div className="grid grid-cols-3 gap-2 sm:gap-4">
      {counters.map(({ label, key, icon, iconClass, hint }) => (
        <Card key={key} role="group" aria-label={label} className="p-3 sm:p-5">
          <StatCardHead label={label} icon={icon} iconClass={iconClass} compact />
          {isLoading ? (
            <Skeleton className="mt-1 h-8 w-12" />
          ) : (
            <p
              data-stat-value
              className={cn(
                'mt-1 text-2xl font-semibold tracking-tight sm:text-3xl',
                key === 'overdue' && (data?.overdue ?? 0) > 0 ? 'text-red-600 dark:text-red-400' : 'text-fg',
              )}
            >
              {data ? data[key].toLocaleString() : '–'}
            </p>
          )}
          <p className="mt-1 hidden text-xs text-fg-subtle sm:block">{hint}</p>
        </Card>
      ))}
    </div>
  );
}
