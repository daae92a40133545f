import {
  PLANS,
  TRIAL_PLAN,
  type PaidPlanType,
  type PaymentProvider,
  type PlanType,
  type SubscriptionStatus,
} from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { auditRepository } from '../audit/audit.repository';
import { billingRepository, type PaymentInsert, type PlanState } from './billing.repository';

/**
 * The one place an organization's plan changes. Every path that grants or ends a plan (a demo
 * checkout, a PayPal capture, a Stripe event) calls these inside its transaction, after the
 * payment was verified, so the plan, its limits, the licence, the payment and the audit entry are
 * written together or not at all.
 */

/** The limits the plan table gives `quantity` seats of a plan. */
export function planLimits(planType: PaidPlanType, quantity: number) {
  return { planType, maxUsers: quantity, maxPackagesPerMonth: PLANS[planType].maxPackagesPerMonth };
}

export type Purchase = {
  provider: PaymentProvider;
  planType: PaidPlanType;
  quantity: number;
  /** Identifies the purchase at the provider: one licence row each. */
  sourceRef: string;
  subscriptionId: string | null;
  /** When the paid period ends (renewal of a subscription, end of a one-time month). */
  periodEnd: Date | null;
  /** Money that moved with the purchase (none for a subscription still in its trial). */
  payment: Omit<PaymentInsert, 'organizationId' | 'provider' | 'status'> | null;
  /** Provider customer and subscription to remember (Stripe; 'demo_cus_…' for the demo provider). */
  customer?: { customerId: string | null; subscriptionId: string | null };
};

/** Who caused a change: a person (checkout) or the provider (webhook, actor null). */
export type Actor = { userId: string | null };

export async function applyPurchase(tx: DbOrTx, organizationId: string, purchase: Purchase, actor: Actor) {
  const price = PLANS[purchase.planType].pricePerUser;
  const state: Partial<PlanState> & Record<string, unknown> = {
    ...planLimits(purchase.planType, purchase.quantity),
    subscriptionStatus: 'active',
    billingProvider: purchase.provider,
    nextBillingDate: purchase.periodEnd,
    ...(purchase.customer
      ? {
          stripeCustomerId: purchase.customer.customerId,
          stripeSubscriptionId: purchase.customer.subscriptionId,
        }
      : {}),
    ...(purchase.payment ? { lastPaymentDate: new Date(), lastPaymentAmount: purchase.payment.amount } : {}),
  };
  const before = await billingRepository.applyPlanState(tx, organizationId, state);
  if (!before) return false;
  await billingRepository.upsertLicense(tx, organizationId, {
    provider: purchase.provider,
    sourceRef: purchase.sourceRef,
    planType: purchase.planType,
    quantity: purchase.quantity,
    pricePerLicense: price,
    totalAmount: price * purchase.quantity,
    expirationDate: purchase.periodEnd,
    subscriptionId: purchase.subscriptionId,
  });
  await billingRepository.deactivateOtherLicenses(tx, organizationId, purchase);
  if (purchase.payment) {
    await billingRepository.recordPayment(tx, {
      ...purchase.payment,
      organizationId,
      provider: purchase.provider,
      status: 'paid',
    });
  }
  await auditPlanChange(tx, organizationId, actor, before, {
    planType: purchase.planType,
    subscriptionStatus: 'active',
    maxUsers: purchase.quantity,
    maxPackagesPerMonth: state.maxPackagesPerMonth,
    provider: purchase.provider,
  });
  return true;
}

/** A subscription's state changed at the provider (seats, status, renewal date). */
export async function applySubscriptionState(
  tx: DbOrTx,
  organizationId: string,
  change: Partial<PlanState> & Record<string, unknown>,
  actor: Actor,
) {
  const before = await billingRepository.applyPlanState(tx, organizationId, change);
  if (!before) return false;
  const watched = ['planType', 'subscriptionStatus', 'maxUsers', 'maxPackagesPerMonth'] as const;
  const after = Object.fromEntries(watched.filter((k) => k in change).map((k) => [k, change[k]]));
  await auditPlanChange(tx, organizationId, actor, before, after);
  return true;
}

/** What a platform operator may set by hand (spec: any status or plan, freely). */
export type OperatorChange = { planType?: PlanType; subscriptionStatus?: SubscriptionStatus };

/**
 * The seats a plan set by hand leaves an organization: the trial's, or the current count kept
 * within the plan's bounds (unlimited counts as the plan's most). Nobody is removed when the
 * count falls below the members present; new members are refused until seats are added.
 */
function operatorSeats(planType: PlanType, currentMaxUsers: number): number {
  if (planType === 'trial') return TRIAL_PLAN.seats;
  const { minUsers, maxUsers } = PLANS[planType];
  if (currentMaxUsers < 0) return maxUsers;
  return Math.min(maxUsers, Math.max(minUsers, currentMaxUsers));
}

/**
 * A super admin changed the plan or the status. A plan brings its limits (seats by
 * `operatorSeats`, the plan table's package limit); the change is audited in the organization's
 * own log too, so its admins see who changed their plan. Answers the fields before and after,
 * or undefined for an unknown organization.
 */
export async function applyOperatorChange(tx: DbOrTx, organizationId: string, change: OperatorChange, actor: Actor) {
  const current = await billingRepository.lockPlan(tx, organizationId);
  if (!current) return undefined;
  const state: Record<string, unknown> = { ...change };
  if (change.planType) {
    state.maxUsers = operatorSeats(change.planType, current.maxUsers);
    state.maxPackagesPerMonth =
      change.planType === 'trial' ? TRIAL_PLAN.maxPackagesPerMonth : PLANS[change.planType].maxPackagesPerMonth;
  }
  const before = (await billingRepository.applyPlanState(tx, organizationId, state))!;
  await auditPlanChange(tx, organizationId, actor, before, state);
  const keys = Object.keys(state).filter((k) => k in before && before[k as keyof typeof before] !== state[k]);
  return {
    name: before.name,
    before: Object.fromEntries(keys.map((k) => [k, before[k as keyof typeof before]])),
    after: Object.fromEntries(keys.map((k) => [k, state[k]])),
  };
}

async function auditPlanChange(
  tx: DbOrTx,
  organizationId: string,
  actor: Actor,
  before: Record<string, unknown> & { name: string },
  after: Record<string, unknown>,
) {
  const changedKeys = Object.keys(after).filter((k) => k in before && before[k] !== after[k]);
  if (changedKeys.length === 0 && !('provider' in after)) return;
  await auditRepository.record(tx, {
    organizationId,
    actorId: actor.userId,
    action: 'billing.plan_changed',
    targetType: 'billing',
    targetId: organizationId,
    targetLabel: before.name,
    before: Object.fromEntries(changedKeys.map((k) => [k, before[k]])),
    after: Object.fromEntries([...changedKeys, ...('provider' in after ? ['provider'] : [])].map((k) => [k, after[k]])),
  });
}

/** A refused billing call, in the organization's audit log: who tried what, and why it was refused. */
export async function auditRefusal(
  db: DbOrTx,
  organizationId: string,
  actor: Actor,
  reason: string,
  details: Record<string, unknown> = {},
) {
  await auditRepository.record(db, {
    organizationId,
    actorId: actor.userId,
    action: 'billing.refused',
    targetType: 'billing',
    targetId: organizationId,
    after: { reason, ...details },
  });
}
