import type { DashboardTrends } from '@contract';

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

/** The texts under the four cards, in the style of the specification's former placeholders. */
export function trendTexts(t: DashboardTrends) {
  return {
    todaysMail: t.todayVsYesterdayPercent
      ? `${signed(t.todayVsYesterdayPercent)}% from yesterday`
      : 'No change from yesterday',
    pendingPickups: `${t.overdue} overdue`,
    activeRecipients: `+${t.newRecipientsThisWeek} new this week`,
    deliveryRate: t.deliveryRateChange ? `${signed(t.deliveryRateChange)}% this month` : 'No change this month',
  };
}
