import type { Analytics } from '@contract';
import { AlertTriangle, Gauge, Timer, TrendingUp, type LucideIcon } from 'lucide-react';
import { FigureCard } from '@/components/FigureCard';
import { Skeleton } from '@/components/ui/skeleton';
import { formatHours } from './format';

interface Figure {
  label: string;
  icon: LucideIcon;
  iconClass: string;
  value: (a: Analytics) => string;
  note: string;
}

const figures: Figure[] = [
  {
    label: 'Average pickup time',
    icon: Timer,
    iconClass: 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400',
    value: (a) => formatHours(a.pickupHours.average),
    note: 'Arrival to hand-over',
  },
  {
    label: '90th percentile pickup time',
    icon: Gauge,
    iconClass: 'bg-sky-50 dark:bg-sky-950/40 text-sky-600 dark:text-sky-400',
    value: (a) => formatHours(a.pickupHours.p90),
    note: '9 in 10 items are collected within this',
  },
  {
    label: 'Delivery rate',
    icon: TrendingUp,
    iconClass: 'bg-emerald-50 dark:bg-emerald-950/40 text-emerald-600 dark:text-emerald-400',
    value: (a) => `${a.deliveryRate}%`,
    note: 'Items of the range handed over',
  },
  {
    label: 'Overdue',
    icon: AlertTriangle,
    iconClass: 'bg-amber-50 dark:bg-amber-950/40 text-amber-600 dark:text-amber-400',
    value: (a) => a.overdue.toLocaleString(),
    note: 'Waiting for more than 72 hours now',
  },
];

export function FigureCards({ data }: { data: Analytics | undefined }) {
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      {figures.map(({ label, icon, iconClass, value, note }) => (
        <FigureCard key={label} label={label} icon={icon} iconClass={iconClass}>
          {data ? (
            <p data-figure-value className="mt-1 text-2xl font-semibold tracking-tight text-fg sm:text-3xl">
              {value(data)}
            </p>
          ) : (
            <Skeleton className="mt-1 h-9 w-20" />
          )}
          <p className="mt-2 text-xs text-fg-subtle">{note}</p>
        </FigureCard>
      ))}
    </div>
  );
}
