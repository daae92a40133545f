import type { DashboardStats } from '@contract';
import { Clock, Mail, TrendingUp, Users, type LucideIcon } from 'lucide-react';
import { FigureCard } from '@/components/FigureCard';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import { useDashboardTrends } from '../api/dashboardTrends';
import { useT, type Translate } from '@/lib/i18n/catalogue';
import { dashboardMessages } from '@/lib/i18n/namespaces/dashboard';
import { trendTexts } from '../api/trendTexts';

type DashboardKey = keyof typeof dashboardMessages.english;

interface StatDefinition {
  label: DashboardKey;
  icon: LucideIcon;
  value: (stats: DashboardStats, t: Translate<DashboardKey>) => string;
  /** Computed from GET /api/dashboard/trends (issue 4 replaces the spec's fixed placeholders). */
  trend: keyof ReturnType<typeof trendTexts>;
  trendClass: string;
  iconClass: string;
}

const stats: StatDefinition[] = [
  {
    label: 'stat.todaysMail',
    icon: Mail,
    value: (s, t) => t('stat.count', { value: s.todaysMail }),
    trend: 'todaysMail',
    trendClass: 'text-emerald-700 dark:text-emerald-400',
    iconClass: 'bg-indigo-50 dark:bg-indigo-950/40 text-indigo-600 dark:text-indigo-400',
  },
  {
    label: 'stat.pendingPickups',
    icon: Clock,
    value: (s, t) => t('stat.count', { value: s.pendingPickups }),
    trend: 'pendingPickups',
    trendClass: 'text-amber-700 dark:text-amber-400',
    iconClass: 'bg-amber-50 dark:bg-amber-950/40 text-amber-600 dark:text-amber-400',
  },
  {
    label: 'stat.activeRecipients',
    icon: Users,
    value: (s, t) => t('stat.count', { value: s.activeRecipients }),
    trend: 'activeRecipients',
    trendClass: 'text-emerald-700 dark:text-emerald-400',
    iconClass: 'bg-sky-50 dark:bg-sky-950/40 text-sky-600 dark:text-sky-400',
  },
  {
    label: 'stat.deliveryRate',
    icon: TrendingUp,
    value: (s, t) => t('stat.percent', { value: s.deliveryRate }),
    trend: 'deliveryRate',
    trendClass: 'text-emerald-700 dark:text-emerald-400',
    iconClass: 'bg-emerald-50 dark:bg-emerald-950/40 text-emerald-600 dark:text-emerald-400',
  },
];

interface StatCardsProps {
  data: DashboardStats | undefined;
  isLoading: boolean;
}

export function StatCards({ data, isLoading }: StatCardsProps) {
  const t = useT(dashboardMessages);
  const { current } = useCurrentOrganization();
  const trends = useDashboardTrends(current?.id);
  const texts = trends.data ? trendTexts(trends.data, t) : undefined;
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      {stats.map(({ label, icon, value, trend, trendClass, iconClass }) => (
        <FigureCard key={label} label={t(label)} icon={icon} iconClass={iconClass}>
          {isLoading ? (
            <Skeleton className="mt-1 h-9 w-20" />
          ) : (
            <p data-stat-value className="mt-1 text-2xl font-semibold tracking-tight text-fg sm:text-3xl">
              {data ? value(data, t) : '–'}
            </p>
          )}
          {texts ? (
            <p data-trend className={`mt-2 text-xs font-medium ${trendClass}`}>
              {texts[trend]}
            </p>
          ) : trends.isPending ? (
            <Skeleton className="mt-2 h-4 w-28" />
          ) : (
            <p className="mt-2 text-xs font-medium text-fg-subtle">–</p>
          )}
        </FigureCard>
      ))}
    </div>
  );
}
