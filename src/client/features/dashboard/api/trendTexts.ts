import type { DashboardTrends } from '@contract';
import type { Translate } from '@/lib/i18n/catalogue';
import type { dashboardMessages } from '@/lib/i18n/namespaces/dashboard';

type DashboardKey = keyof typeof dashboardMessages.english;

/** "+" before a rise; a fall keeps its own minus. */
const sign = (n: number) => (n > 0 ? '+' : '');

/** The texts under the four cards, in the style of the specification's former placeholders, in the screens' language. */
export function trendTexts(trends: DashboardTrends, t: Translate<DashboardKey>) {
  const today = trends.todayVsYesterdayPercent ?? 0;
  const rate = trends.deliveryRateChange ?? 0;
  return {
    todaysMail: t('trend.todaysMail', { change: today, sign: sign(today) }),
    pendingPickups: t('trend.pendingPickups', { count: trends.overdue }),
    activeRecipients: t('trend.activeRecipients', { count: trends.newRecipientsThisWeek }),
    deliveryRate: t('trend.deliveryRate', { change: rate, sign: sign(rate) }),
  };
}
