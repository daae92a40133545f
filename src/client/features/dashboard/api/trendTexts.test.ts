import { describe, expect, it } from 'vitest';
import { trendTexts } from './trendTexts';

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
});
