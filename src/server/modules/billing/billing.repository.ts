import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PaidPlanType, PaymentProvider } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { billingCheckouts, billingEvents, billingPayments, organizationLicenses, organizations } from '../../db/schema';
import { selectOrganizationLocked } from '../organizations/members.repository';

export type CheckoutRow = typeof billingCheckouts.$inferSelect;

/** What a verified purchase sets on the organization: the plan table's limits for the seats bought. */
export type PlanState = {
  planType: PaidPlanType;
  subscriptionStatus: 'active' | 'expired' | 'cancelled';
  maxUsers: number;
  maxPackagesPerMonth: number;
  billingProvider: PaymentProvider;
  nextBillingDate: Date | null;
};

export type LicenseUpsert = {
  provider: PaymentProvider;
  sourceRef: string;
  planType: PaidPlanType;
  quantity: number;
  pricePerLicense: number;
  totalAmount: number;
  expirationDate: Date | null;
  subscriptionId: string | null;
};

export type PaymentInsert = Omit<typeof billingPayments.$inferInsert, 'id' | 'createdAt'>;

/** What the Stripe webhook reads of an organization: its Stripe ids and the time of the last subscription event. */
const stripeStateColumns = {
  id: organizations.id,
  stripeCustomerId: organizations.stripeCustomerId,
  stripeSubscriptionId: organizations.stripeSubscriptionId,
  stripeSubscriptionEventAt: organizations.stripeSubscriptionEventAt,
};

/** This organization's licences that match every condition. */
const licensesOf = (organizationId: string, ...conditions: SQL[]) =>
  and(eq(organizationLicenses.organizationId, organizationId), ...conditions);

/** The one checkout of this organization that matches every condition, if any. */
async function findOneCheckout(db: DbOrTx, organizationId: string, ...conditions: SQL[]) {
  const [row] = await db
    .select()
    .from(billingCheckouts)
    .where(and(eq(billingCheckouts.organizationId, organizationId), ...conditions));
  return row;
}

/** Billing rows; every method takes the organization id, except the webhook's lookups by provider ids. */
export const billingRepository = {
  async insertCheckout(db: DbOrTx, values: typeof billingCheckouts.$inferInsert): Promise<CheckoutRow> {
    const [row] = await db.insert(billingCheckouts).values(values).returning();
    return row!;
  },

  findCheckout(db: DbOrTx, organizationId: string, id: string, provider: PaymentProvider) {
    return findOneCheckout(db, organizationId, eq(billingCheckouts.id, id), eq(billingCheckouts.provider, provider));
  },

  /** A PayPal order (real or demo) this organization created, by the order id the client holds. */
  findOrder(db: DbOrTx, organizationId: string, orderId: string) {
    return findOneCheckout(
      db,
      organizationId,
      eq(billingCheckouts.providerRef, orderId),
      inArray(billingCheckouts.provider, ['paypal', 'demo']),
    );
  },

  /** A Stripe Checkout Session this organization started (the webhook checks the pair). */
  findStripeCheckout(db: DbOrTx, organizationId: string, sessionId: string) {
    return findOneCheckout(
      db,
      organizationId,
      eq(billingCheckouts.provider, 'stripe'),
      eq(billingCheckouts.providerRef, sessionId),
    );
  },

  /**
   * Moves a checkout from one status to another; answers the row only if it was in `from`, so of
   * two concurrent captures exactly one proceeds.
   */
  async transitionCheckout(db: DbOrTx, organizationId: string, id: string, from: string, to: string) {
    const [row] = await db
      .update(billingCheckouts)
      .set({ status: to, ...(to === 'completed' ? { completedAt: new Date() } : {}) })
      .where(
        and(
          eq(billingCheckouts.organizationId, organizationId),
          eq(billingCheckouts.id, id),
          eq(billingCheckouts.status, from),
        ),
      )
      .returning();
    return row;
  },

  /** The organization's current limits, locked until the transaction ends (a plan change reads then writes them). */
  lockPlan(db: DbOrTx, organizationId: string) {
    return selectOrganizationLocked(db, organizationId, {
      maxUsers: organizations.maxUsers,
      planType: organizations.planType,
    });
  },

  /** Sets the plan's state on the organization; answers the row before the change (for the audit). */
  async applyPlanState(db: DbOrTx, organizationId: string, state: Partial<PlanState> & Record<string, unknown>) {
    const before = await selectOrganizationLocked(db, organizationId, {
      planType: organizations.planType,
      subscriptionStatus: organizations.subscriptionStatus,
      maxUsers: organizations.maxUsers,
      maxPackagesPerMonth: organizations.maxPackagesPerMonth,
      name: organizations.name,
    });
    if (!before) return undefined;
    await db
      .update(organizations)
      .set({ ...state, updatedAt: new Date() })
      .where(eq(organizations.id, organizationId));
    return before;
  },

  /** One licence row per purchase: a repeated purchase event updates the same row. */
  async upsertLicense(db: DbOrTx, organizationId: string, l: LicenseUpsert) {
    await db
      .insert(organizationLicenses)
      .values({
        organizationId,
        provider: l.provider,
        sourceRef: l.sourceRef,
        planType: l.planType,
        quantity: l.quantity,
        pricePerLicense: l.pricePerLicense,
        totalAmount: l.totalAmount,
        expirationDate: l.expirationDate,
        stripeSubscriptionId: l.subscriptionId,
        isActive: true,
      })
      .onConflictDoUpdate({
        target: [organizationLicenses.provider, organizationLicenses.sourceRef],
        set: {
          planType: l.planType,
          quantity: l.quantity,
          pricePerLicense: l.pricePerLicense,
          totalAmount: l.totalAmount,
          expirationDate: l.expirationDate,
        },
        setWhere: eq(organizationLicenses.organizationId, organizationId),
      });
  },

  /** A purchase's licence renews (its next period is paid) or ends. */
  async updateLicense(
    db: DbOrTx,
    organizationId: string,
    provider: PaymentProvider,
    sourceRef: string,
    values: Partial<typeof organizationLicenses.$inferInsert>,
  ) {
    await db
      .update(organizationLicenses)
      .set(values)
      .where(
        licensesOf(
          organizationId,
          eq(organizationLicenses.provider, provider),
          eq(organizationLicenses.sourceRef, sourceRef),
        ),
      );
  },

  /** Ends every active licence but the one just bought: a new purchase replaces the plan. */
  async deactivateOtherLicenses(db: DbOrTx, organizationId: string, keep: { provider: string; sourceRef: string }) {
    await db
      .update(organizationLicenses)
      .set({ isActive: false, cancelledAt: new Date() })
      .where(
        licensesOf(
          organizationId,
          eq(organizationLicenses.isActive, true),
          sql`not (${organizationLicenses.provider} = ${keep.provider} and ${organizationLicenses.sourceRef} is not distinct from ${keep.sourceRef})`,
        ),
      );
  },

  async activeLicenses(db: DbOrTx, organizationId: string) {
    return db
      .select()
      .from(organizationLicenses)
      .where(licensesOf(organizationId, eq(organizationLicenses.isActive, true)))
      .orderBy(desc(organizationLicenses.purchaseDate));
  },

  /** Whether an active licence backs exactly this plan and seat count. */
  async hasActiveLicense(db: DbOrTx, organizationId: string, planType: PaidPlanType, quantity: number) {
    const [row] = await db
      .select({ id: organizationLicenses.id })
      .from(organizationLicenses)
      .where(
        licensesOf(
          organizationId,
          eq(organizationLicenses.isActive, true),
          eq(organizationLicenses.planType, planType),
          eq(organizationLicenses.quantity, quantity),
        ),
      )
      .limit(1);
    return !!row;
  },

  /** Answers whether the payment was new (false: this outcome of this charge was already recorded). */
  async recordPayment(db: DbOrTx, values: PaymentInsert): Promise<boolean> {
    const rows = await db
      .insert(billingPayments)
      .values(values)
      .onConflictDoNothing({
        target: [billingPayments.provider, billingPayments.providerRef, billingPayments.status],
      })
      .returning({ id: billingPayments.id });
    return rows.length > 0;
  },

  async payments(db: DbOrTx, organizationId: string, limit: number) {
    return db
      .select()
      .from(billingPayments)
      .where(eq(billingPayments.organizationId, organizationId))
      .orderBy(desc(billingPayments.createdAt))
      .limit(limit);
  },

  /** Marks a provider event handled; false when it already was (a replay). */
  async claimEvent(db: DbOrTx, provider: string, eventId: string, type: string): Promise<boolean> {
    const rows = await db
      .insert(billingEvents)
      .values({ provider, eventId, type })
      .onConflictDoNothing()
      .returning({ eventId: billingEvents.eventId });
    return rows.length > 0;
  },

  async tagEvent(db: DbOrTx, provider: string, eventId: string, organizationId: string) {
    await db
      .update(billingEvents)
      .set({ organizationId })
      .where(and(eq(billingEvents.provider, provider), eq(billingEvents.eventId, eventId)));
  },

  /** The organization a Stripe customer or subscription belongs to. */
  async organizationForStripe(db: DbOrTx, ids: { customerId: string | null; subscriptionId: string | null }) {
    const conditions = [
      ids.customerId ? eq(organizations.stripeCustomerId, ids.customerId) : undefined,
      ids.subscriptionId ? eq(organizations.stripeSubscriptionId, ids.subscriptionId) : undefined,
    ].filter((c) => c !== undefined);
    if (conditions.length === 0) return undefined;
    const [row] = await db
      .select(stripeStateColumns)
      .from(organizations)
      .where(sql.join(conditions, sql` or `))
      .limit(1);
    return row;
  },

  async stripeState(db: DbOrTx, organizationId: string) {
    const [row] = await db.select(stripeStateColumns).from(organizations).where(eq(organizations.id, organizationId));
    return row;
  },
};
