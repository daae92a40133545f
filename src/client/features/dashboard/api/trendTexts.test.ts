import { beforeAll, describe, expect, it } from 'vitest';
import type { DashboardTrends } from '@contract';
import { translatorIn, type Translate } from '@/lib/i18n/catalogue';
import { dashboardMessages } from '@/lib/i18n/namespaces/dashboard';
import { trendTexts as inLanguage } from './trendTexts';

type Key = keyof typeof dashboardMessages.english;
let english: Translate<Key>;
let spanish: Translate<Key>;
beforeAll(async () => {
  english = await translatorIn(dashboardMessages, 'en');
  spanish = await translatorIn(dashboardMessages, 'es');
});
const trendTexts = (trends: DashboardTrends) => inLanguage(trends, english);

describe('trendTexts', () => {
  it('writes the computed figures in the style of the former placeholders', () => {
    expect(
      trendTexts({ todayVsYesterdayPercent: 12, overdue: 3, newRecipientsThisWeek: 5, deliveryRateChange: 1 }),
    ).toEqual({
      todaysMail: '+12% from yesterday',
      pendingPickups: '3 overdue',
      activeRecipients: '+5 new this week',
      deliveryRate: '+1% this month',
    });
  });

  it('says no change for null or 0, and keeps the minus of a fall', () => {
    const none = trendTexts({
      todayVsYesterdayPercent: null,
      overdue: 0,
      newRecipientsThisWeek: 0,
      deliveryRateChange: 0,
    });
    expect(none).toEqual({
      todaysMail: 'No change from yesterday',
      pendingPickups: '0 overdue',
      activeRecipients: '+0 new this week',
      deliveryRate: 'No change this month',
    });
    expect(
      trendTexts({ todayVsYesterdayPercent: 0, overdue: 0, newRecipientsThisWeek: 0, deliveryRateChange: -4 }),
    ).toMatchObject({ todaysMail: 'No change from yesterday', deliveryRate: '-4% this month' });
    expect(
      trendTexts({ todayVsYesterdayPercent: -50, overdue: 0, newRecipientsThisWeek: 0, deliveryRateChange: 0 })
        .todaysMail,
    ).toBe('-50% from yesterday');
  });

  it('speaks Spanish with its plurals and spacing', () => {
    expect(
      inLanguage({ todayVsYesterdayPercent: 12, overdue: 1, newRecipientsThisWeek: 5, deliveryRateChange: 0 }, spanish),
    ).toEqual({
      todaysMail: '+12 % desde ayer',
      pendingPickups: '1 retrasado',
      activeRecipients: '+5 nuevos esta semana',
      deliveryRate: 'Sin cambios este mes',
    });
  });
});
