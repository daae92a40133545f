import { Building2, CircleDollarSign, Clock, CreditCard, Package, Users, type LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { usePlatformStats } from '../api/platform';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** The six platform figures of spec §2, from one SQL statement on the server. */
export function PlatformStatCards() {
  const { data, isError } = usePlatformStats();
  const cards: Array<{ label: string; value: string | undefined; icon: LucideIcon; tone: string }> = [
    {
      label: 'Organizations',
      value: data?.totalOrganizations.toLocaleString(),
      icon: Building2,
      tone: 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400',
    },
    {
      label: 'Total Users',
      value: data?.totalUsers.toLocaleString(),
      icon: Users,
      tone: 'bg-sky-50 dark:bg-sky-950/40 text-sky-600 dark:text-sky-400',
    },
    {
      label: 'Active Trials',
      value: data?.activeTrials.toLocaleString(),
      icon: Clock,
      tone: 'bg-amber-50 dark:bg-amber-950/40 text-amber-600 dark:text-amber-400',
    },
    {
      label: 'Paid Subs',
      value: data?.paidSubscriptions.toLocaleString(),
      icon: CreditCard,
      tone: 'bg-emerald-50 dark:bg-emerald-950/40 text-emerald-600 dark:text-emerald-400',
    },
    {
      label: 'Packages/Month',
      value: data?.totalPackagesThisMonth.toLocaleString(),
      icon: Package,
      tone: 'bg-violet-50 dark:bg-violet-950/40 text-violet-600 dark:text-violet-400',
    },
    {
      label: 'Revenue',
      value: data ? dollars.format(data.revenue) : undefined,
      icon: CircleDollarSign,
      tone: 'bg-green-50 dark:bg-green-950/40 text-green-600 dark:text-green-400',
    },
  ];
  return (
    // Sized by the room the page gives them (a sidebar takes some), not by the window: six in a
    // row only when each card has room for its label and icon, which is dropped on narrow cards.
    <div className="@container">
      <ul aria-label="Platform figures" className="grid grid-cols-2 gap-3 @lg:grid-cols-3 @5xl:grid-cols-6">
        {cards.map(({ label, value, icon: Icon, tone }) => (
          <li key={label} className="@container">
            <Card className="flex h-full items-start justify-between gap-2 p-4">
              <div className="min-w-0">
                <p className="text-xs font-medium break-words text-fg-subtle">{label}</p>
                {value !== undefined ? (
                  <p className="mt-1 truncate text-2xl font-semibold tabular-nums text-fg">{value}</p>
                ) : isError ? (
                  <p className="mt-1 text-sm text-red-600 dark:text-red-400">Unavailable</p>
                ) : (
                  <Skeleton className="mt-2 h-7 w-16" />
                )}
              </div>
              <span className={`hidden size-8 shrink-0 items-center justify-center rounded-lg @[10.5rem]:flex ${tone}`}>
                <Icon aria-hidden className="size-4" />
              </span>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
