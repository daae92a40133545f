import type { LicenseSummary, Organization, PaidPlanType, PlansReply } from '@contract';
// relative, so the unit test (no path aliases in vitest.config) can load it
import { PLANS, seatCountProblem, trialDaysLeft, writeBlockOf } from '../../../contract/billing';

type PlanFields = Pick<Organization, 'planType' | 'subscriptionStatus' | 'trialEndDate'>;

/** Within this many days of its end a trial's banner turns amber (and the last day red). */
export const TRIAL_URGENT_DAYS = 3;

/** What the shell's banner says about the organization's plan; null for an active paid plan. */
export type PlanBanner =
  | { kind: 'trial'; daysLeft: number; tone: 'calm' | 'warning' | 'danger' }
  | { kind: 'trial_expired' }
  | { kind: 'inactive'; status: 'cancelled' | 'expired' };

export function planBannerOf(org: PlanFields, now = new Date()): PlanBanner | null {
  const block = writeBlockOf(org, now);
  if (block === 'trial_expired') return { kind: 'trial_expired' };
  if (block === 'subscription_inactive') {
    return { kind: 'inactive', status: org.subscriptionStatus === 'cancelled' ? 'cancelled' : 'expired' };
  }
  if (org.subscriptionStatus !== 'trial') return null;
  const daysLeft = trialDaysLeft(org.trialEndDate, now);
  const tone = daysLeft <= 1 ? 'danger' : daysLeft <= TRIAL_URGENT_DAYS ? 'warning' : 'calm';
  return { kind: 'trial', daysLeft, tone };
}

/** "1 day left", "6 days left". */
export function daysLeftText(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'} left`;
}

/** "Free trial", "Professional". */
export function planName(planType: Organization['planType']): string {
  return planType === 'trial' ? 'Free trial' : PLANS[planType].name;
}

/** How a subscription status reads on a badge. */
export function statusLabel(org: PlanFields, now = new Date()): string {
  if (org.subscriptionStatus === 'trial') return writeBlockOf(org, now) ? 'Trial expired' : 'Trial';
  return { active: 'Active', cancelled: 'Cancelled', expired: 'Expired' }[org.subscriptionStatus];
}

/** Seats as people read them: -1 is unlimited (spec §9). */
export function seatsText(seats: number): string {
  return seats < 0 ? 'Unlimited' : String(seats);
}

/** "12 of 500", "12 of Unlimited". */
export function packagesText(summary: Pick<LicenseSummary, 'packagesThisMonth' | 'maxPackagesPerMonth'>): string {
  const limit = summary.maxPackagesPerMonth < 0 ? 'Unlimited' : summary.maxPackagesPerMonth.toLocaleString('en-US');
  return `${summary.packagesThisMonth.toLocaleString('en-US')} of ${limit}`;
}

/** Days until `iso`, rounded up; negative once past. */
export function daysUntil(iso: string, now = new Date()): number {
  return Math.ceil((new Date(iso).getTime() - now.getTime()) / 86_400_000);
}

/** Spec §9: a licence's renewal is flagged when 30 days or fewer remain. */
export const RENEWAL_WARNING_DAYS = 30;

/** The reason a typed number of users cannot be bought, or null (the server checks the same, 400). */
export function seatTextProblem(planType: PaidPlanType, text: string, members = 0): string | null {
  if (text.trim() === '') return 'Enter the number of users';
  return seatCountProblem(planType, Number(text), members);
}

/** A plan's users clamped into its bounds (and not below the members present when the plan allows). */
export function clampSeats(planType: PaidPlanType, users: number, members = 0): number {
  const plan = PLANS[planType];
  const wanted = Math.max(Number.isFinite(users) ? Math.round(users) : plan.minUsers, members);
  return Math.min(plan.maxUsers, Math.max(plan.minUsers, wanted));
}

export type PaymentMethod = 'card' | 'paypal';

/** The checkout's payment choices this server takes, in the order shown (null providers are not offered). */
export function offeredMethods(providers: PlansReply['providers']): PaymentMethod[] {
  return (['card', 'paypal'] as const).filter((m) => providers[m] !== null);
}
