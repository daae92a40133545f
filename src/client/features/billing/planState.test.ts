import { describe, expect, it } from 'vitest';
import { clampSeats, daysLeftText, offeredMethods, planBannerOf, seatTextProblem, statusLabel } from './planState';

const now = new Date('2026-11-24T12:00:00.000Z');
const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();
const trial = (days: number) => ({
  planType: 'trial' as const,
  subscriptionStatus: 'trial' as const,
  trialEndDate: inDays(days),
});

describe('planBannerOf', () => {
  it('is calm with days to go, amber within the last 3 days, red on the last day and once ended', () => {
    expect(planBannerOf(trial(7), now)).toEqual({ kind: 'trial', daysLeft: 7, tone: 'calm' });
    expect(planBannerOf(trial(6.2), now)).toEqual({ kind: 'trial', daysLeft: 7, tone: 'calm' });
    expect(planBannerOf(trial(3), now)).toEqual({ kind: 'trial', daysLeft: 3, tone: 'warning' });
    expect(planBannerOf(trial(0.5), now)).toEqual({ kind: 'trial', daysLeft: 1, tone: 'danger' });
    expect(planBannerOf(trial(-0.01), now)).toEqual({ kind: 'trial_expired' });
  });

  it('says nothing for an active paid plan and names a lapsed one', () => {
    const paid = { planType: 'professional' as const, trialEndDate: inDays(-30) };
    expect(planBannerOf({ ...paid, subscriptionStatus: 'active' }, now)).toBeNull();
    expect(planBannerOf({ ...paid, subscriptionStatus: 'cancelled' }, now)).toEqual({
      kind: 'inactive',
      status: 'cancelled',
    });
    expect(planBannerOf({ ...paid, subscriptionStatus: 'expired' }, now)).toEqual({
      kind: 'inactive',
      status: 'expired',
    });
  });
});

describe('texts', () => {
  it('counts days and names statuses', () => {
    expect(daysLeftText(1)).toBe('1 day left');
    expect(daysLeftText(7)).toBe('7 days left');
    expect(statusLabel(trial(2), now)).toBe('Trial');
    expect(statusLabel(trial(-1), now)).toBe('Trial expired');
  });
});

describe('seats', () => {
  it('checks the typed number against the plan and the members present', () => {
    expect(seatTextProblem('professional', '5')).toBeNull();
    expect(seatTextProblem('professional', '')).toBe('Enter the number of users');
    expect(seatTextProblem('starter', '5')).toBe('Starter is for 1 to 3 users');
    expect(seatTextProblem('professional', '2', 4)).toMatch(/has 4 members/);
  });

  it('clamps a number of users into a newly chosen plan', () => {
    expect(clampSeats('starter', 5)).toBe(3);
    expect(clampSeats('enterprise', 5)).toBe(10);
    expect(clampSeats('professional', 3, 4)).toBe(4);
    expect(clampSeats('professional', Number.NaN)).toBe(1);
  });
});

describe('offeredMethods', () => {
  it('offers only the choices the server takes (decision 028)', () => {
    expect(offeredMethods({ card: 'stripe', paypal: 'paypal' })).toEqual(['card', 'paypal']);
    expect(offeredMethods({ card: 'demo', paypal: 'demo' })).toEqual(['card', 'paypal']);
    expect(offeredMethods({ card: 'stripe', paypal: null })).toEqual(['card']);
    expect(offeredMethods({ card: null, paypal: 'paypal' })).toEqual(['paypal']);
    expect(offeredMethods({ card: null, paypal: null })).toEqual([]);
  });
});
