import {
  BILLING_MESSAGES,
  CURRENCY,
  PLAN_LIST,
  PLANS,
  TRIAL_PLAN,
  YEARLY_DISCOUNT,
  monthlyTotalCents,
  seatCountProblem,
  trialDaysLeft,
  writeBlockOf,
  type CaptureReply,
  type CheckoutSessionReply,
  type CreateCheckoutSessionBody,
  type CreatePaypalOrderBody,
  type DemoCheckout,
  type License,
  type LicenseSummary,
  type Organization,
  type PaidPlanType,
  type PaymentProvider,
  type Payment,
  type PaypalOrderReply,
  type PaypalSetupReply,
  type PlansReply,
  type UpgradeBody,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { AppError, badRequest, conflict, notFound, tooManyRequests } from '../../lib/errors';
import * as rateLimiter from '../../lib/rate-limiter';
import type { RateResult } from '../../lib/rate-limiter';
import { DAY_MS, addMs, iso, isoOrNull } from '../../lib/time';
import { usersRepository } from '../auth/users.repository';
import { membersRepository } from '../organizations/members.repository';
import { organizationsRepository } from '../organizations/organizations.repository';
import { toOrganizationDto } from '../organizations/organizations.service';
import { billingRepository, type CheckoutRow } from './billing.repository';
import {
  ProviderRefusedError,
  ProviderUnavailableError,
  type PaypalCapture,
  type PaypalGateway,
  type StripeGateway,
} from './gateways';
import { applyPurchase, auditRefusal, type Actor, type Purchase } from './plan-changes';

export type Gateways = { stripe: StripeGateway | null; paypal: PaypalGateway | null };

/** A one-time payment (PayPal, demo) pays for one month of the seats bought. */
const ONE_MONTH_MS = 30 * DAY_MS;
/** Stripe refuses a trial_end less than 48 hours away: a shorter rest of our trial is not carried over. */
const STRIPE_MIN_TRIAL_MS = 49 * 3600_000;
const DEMO_CUSTOMER_PREFIX = 'demo_cus_';
/**
 * A demo checkout (or demo PayPal order) can be completed for an hour after it was opened, as a
 * real provider's page would time out; after that, and whenever DEMO_PAYMENTS is off, never.
 */
export const DEMO_CHECKOUT_TTL_MS = 3600_000;
/**
 * Billing writes an organization may make per window, all kinds together: checkout sessions,
 * PayPal orders and captures, portal sessions, demo completions. Counted in PostgreSQL (the
 * sign-in limits' counters, lib/rate-limiter.ts) so every instance shares them. A person buying a
 * plan makes two or three; ten a minute bounds what a script holding an admin session can send
 * to Stripe and PayPal in our name.
 */
const BILLING_WRITES_PER_WINDOW = 10;
const BILLING_WRITE_WINDOW_SECONDS = 60;
/** The organization's counter in rate_limits. */
const billingWritesKey = (organizationId: string) => `billing:org:${organizationId}`;
/**
 * Refused billing calls audited per person per window (decision 052): each refusal is an audit
 * entry, and a member's refusals (403) are counted before the write budget above, so 100 refused
 * PayPal orders wrote 100 entries. The first ones of a window are audited as before, then one
 * entry says the rest are throttled; past it a member's refused call answers 429 with
 * Retry-After, an admin's keeps its own answer, and neither writes to the audit log.
 */
export const BILLING_REFUSALS_AUDITED_PER_WINDOW = 5;
const BILLING_REFUSAL_WINDOW_SECONDS = 15 * 60;
const billingRefusalsKey = (organizationId: string, userId: string) => `billing-refused:${organizationId}:${userId}`;

const paymentRequired = (message: string, code: string) => new AppError(402, message, code);
/** A payment choice this server does not offer (decision 028): nothing is written. */
const unavailable = (message: string) => conflict(message, 'payment_method_unavailable');
const providerDown = () => new AppError(502, BILLING_MESSAGES.providerDown, 'provider_unavailable');

/** "175.00", "175", 175 or 175.5 as cents; null when it is not an amount. */
function parseAmountCents(value: string | number): number | null {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

const planLabel = (planType: PaidPlanType, quantity: number) =>
  `${PLANS[planType].name} plan, ${quantity} ${quantity === 1 ? 'user' : 'users'}, one month`;

/**
 * A paid month of a checkout's plan, as the demo provider and a PayPal capture complete it: no
 * subscription, and the payment recorded under the purchase's reference at the provider.
 */
function oneMonthPurchase(
  checkout: CheckoutRow,
  provider: 'demo' | 'paypal',
  sourceRef: string,
  description: string,
): Purchase {
  return {
    provider,
    planType: checkout.planType as PaidPlanType,
    quantity: checkout.quantity,
    sourceRef,
    subscriptionId: null,
    periodEnd: addMs(new Date(), ONE_MONTH_MS),
    payment: {
      providerRef: sourceRef,
      amount: checkout.amount,
      currency: checkout.currency,
      planType: checkout.planType,
      quantity: checkout.quantity,
      description,
      invoiceUrl: null,
    },
  };
}

export function createBillingService({ db, log, config, publicUrl }: Deps, gateways: Gateways) {
  const actorOf = (caller: OrgCaller): Actor => ({ userId: caller.userId });

  /**
   * Who takes each payment choice: its provider when its keys are set, else the demo provider
   * when DEMO_PAYMENTS is on (config refuses it together with any key), else nobody.
   */
  const providers: PlansReply['providers'] = {
    card: gateways.stripe ? 'stripe' : config.demoPayments ? 'demo' : null,
    paypal: gateways.paypal ? 'paypal' : config.demoPayments ? 'demo' : null,
  };
  function requireCard() {
    if (!providers.card) throw unavailable(BILLING_MESSAGES.cardUnavailable);
  }
  function requirePaypal() {
    if (!providers.paypal) throw unavailable(BILLING_MESSAGES.paypalUnavailable);
  }
  /** Demo checkouts and demo orders complete only while the demo provider is on. */
  function requireDemo() {
    if (!config.demoPayments) throw unavailable(BILLING_MESSAGES.demoUnavailable);
  }
  const demoExpired = (checkout: CheckoutRow, now = Date.now()) =>
    checkout.status !== 'completed' && checkout.createdAt.getTime() + DEMO_CHECKOUT_TTL_MS <= now;

  /** One billing write of the organization: 429 with Retry-After past the limit (nothing else is done). */
  async function throttle(caller: OrgCaller) {
    const limited = await rateLimiter.hit(
      db,
      billingWritesKey(caller.organizationId),
      BILLING_WRITES_PER_WINDOW,
      BILLING_WRITE_WINDOW_SECONDS,
    );
    if (!limited.allowed) {
      log.warn({ organizationId: caller.organizationId, count: limited.count }, 'billing writes throttled');
      throw tooManyRequests(BILLING_MESSAGES.tooManyBillingRequests, limited.retryAfterSeconds);
    }
  }

  /** The end of the trial a Stripe checkout started now carries over, or null (charged at once). */
  function carriedTrialEnd(org: { subscriptionStatus: string; trialEndDate: Date | null }): Date | null {
    if (!gateways.stripe || org.subscriptionStatus !== 'trial' || !org.trialEndDate) return null;
    return org.trialEndDate.getTime() - Date.now() >= STRIPE_MIN_TRIAL_MS ? org.trialEndDate : null;
  }

  /**
   * A refusal for the audit log, while this person's refusals of the window are within
   * BILLING_REFUSALS_AUDITED_PER_WINDOW; the first one past it writes one entry saying the rest
   * are throttled, and later ones write nothing. Answers the count (`allowed`: still audited).
   */
  async function auditRefusalCounted(
    caller: OrgCaller,
    reason: string,
    details: Record<string, unknown>,
  ): Promise<RateResult> {
    const counted = await rateLimiter.hit(
      db,
      billingRefusalsKey(caller.organizationId, caller.userId),
      BILLING_REFUSALS_AUDITED_PER_WINDOW,
      BILLING_REFUSAL_WINDOW_SECONDS,
    );
    if (counted.allowed) {
      await auditRefusal(db, caller.organizationId, actorOf(caller), reason, details);
    } else if (counted.count === BILLING_REFUSALS_AUDITED_PER_WINDOW + 1) {
      log.warn({ organizationId: caller.organizationId, userId: caller.userId }, 'billing refusals throttled');
      const until = new Date(Date.now() + counted.retryAfterSeconds * 1000).toISOString();
      await auditRefusal(
        db,
        caller.organizationId,
        actorOf(caller),
        `More than ${BILLING_REFUSALS_AUDITED_PER_WINDOW} refused billing calls: further ones are throttled and not audited until ${until}`,
        { ...details, throttledUntil: until },
      );
    }
    return counted;
  }

  /** 400 unless the plan allows this many seats and they cover the members present; refusals are audited. */
  async function checkSeats(caller: OrgCaller, planType: PaidPlanType, quantity: number) {
    const members = await membersRepository.count(db, caller.organizationId);
    const problem = seatCountProblem(planType, quantity, members);
    if (problem) {
      await auditRefusalCounted(caller, problem, { planType, quantity });
      throw badRequest(problem, 'invalid_seats');
    }
  }

  async function refuse(caller: OrgCaller, error: AppError, details: Record<string, unknown> = {}): Promise<never> {
    await auditRefusalCounted(caller, error.message, details);
    throw error;
  }

  async function organizationOf(organizationId: string): Promise<Organization> {
    const org = await organizationsRepository.findById(db, organizationId);
    if (!org) throw notFound('Organization not found');
    return toOrganizationDto(org);
  }

  /** Provider failures as the caller should see them; nothing was applied when these are thrown. */
  function providerError(err: unknown): never {
    if (err instanceof ProviderUnavailableError) {
      log.warn({ err, provider: err.provider }, 'payment provider unavailable');
      throw providerDown();
    }
    if (err instanceof ProviderRefusedError) {
      log.warn({ provider: err.provider, code: err.providerCode, message: err.message }, 'payment provider refused');
      throw new AppError(502, BILLING_MESSAGES.providerDown, 'provider_error');
    }
    throw err;
  }

  /** A demo checkout or a demo PayPal order: the local provider "charges" it at once. */
  async function completeDemo(caller: OrgCaller, checkout: CheckoutRow) {
    requireDemo();
    if (demoExpired(checkout)) throw conflict(BILLING_MESSAGES.demoCheckoutExpired, 'checkout_expired');
    await checkSeats(caller, checkout.planType as PaidPlanType, checkout.quantity);
    await db.transaction(async (tx) => {
      const claimed = await billingRepository.transitionCheckout(
        tx,
        caller.organizationId,
        checkout.id,
        'open',
        'completed',
      );
      if (!claimed) return; // completed already: nothing twice
      await applyPurchase(
        tx,
        caller.organizationId,
        {
          ...oneMonthPurchase(
            checkout,
            'demo',
            checkout.id,
            `${planLabel(checkout.planType as PaidPlanType, checkout.quantity)} (demo payment)`,
          ),
          customer: { customerId: `${DEMO_CUSTOMER_PREFIX}${caller.organizationId.slice(0, 8)}`, subscriptionId: null },
        },
        actorOf(caller),
      );
    });
  }

  /** What PayPal answered must be exactly the order this organization priced, completed. */
  function verifiedCapture(capture: PaypalCapture, order: CheckoutRow): string | null {
    if (capture.status !== 'COMPLETED') return `order status ${capture.status}`;
    if (capture.captureStatus !== null && capture.captureStatus !== 'COMPLETED') {
      return `capture status ${capture.captureStatus}`;
    }
    if (capture.amount !== order.amount) return `amount ${capture.amount} instead of ${order.amount}`;
    if (capture.currency !== order.currency) return `currency ${capture.currency} instead of ${order.currency}`;
    if (capture.customId !== null && capture.customId !== order.organizationId) return 'order of another organization';
    return null;
  }

  return {
    /**
     * A member's attempt at an admin-only billing call (refused 403 by the route's requireAdmin):
     * worth knowing, so it goes to the organization's audit log, the first ones of a window; past
     * them the call answers 429 with Retry-After instead (thrown here) and nothing is written.
     */
    async recordAdminRefusal(caller: OrgCaller, reason: string, call: string): Promise<void> {
      const counted = await auditRefusalCounted(caller, reason, { call });
      if (!counted.allowed) {
        throw tooManyRequests(BILLING_MESSAGES.tooManyRefusedBillingRequests, counted.retryAfterSeconds);
      }
    },

    plans(): PlansReply {
      return {
        plans: PLAN_LIST,
        trial: { days: TRIAL_PLAN.days, seats: TRIAL_PLAN.seats, maxPackagesPerMonth: TRIAL_PLAN.maxPackagesPerMonth },
        yearlyDiscount: YEARLY_DISCOUNT,
        currency: CURRENCY,
        demoMode: config.demoPayments,
        providers,
        salesEmail: config.salesEmail,
      };
    },

    async summary(caller: OrgCaller): Promise<LicenseSummary> {
      const [org, seatsUsed] = await Promise.all([
        organizationsRepository.findById(db, caller.organizationId),
        membersRepository.count(db, caller.organizationId),
      ]);
      if (!org) throw notFound('Organization not found');
      const paid = org.planType !== 'trial';
      const price = PLANS[paid ? (org.planType as PaidPlanType) : 'professional'].pricePerUser;
      const block = writeBlockOf(org);
      return {
        planType: org.planType,
        subscriptionStatus: org.subscriptionStatus,
        seats: org.maxUsers,
        seatsUsed,
        seatsAvailable: org.maxUsers === -1 ? -1 : Math.max(0, org.maxUsers - seatsUsed),
        pricePerLicense: price,
        monthlyTotal: paid && org.maxUsers > 0 ? price * org.maxUsers : 0,
        nextBillingDate: isoOrNull(org.nextBillingDate),
        trialEndDate: isoOrNull(org.trialEndDate),
        daysLeft: org.subscriptionStatus === 'trial' ? trialDaysLeft(org.trialEndDate) : 0,
        maxPackagesPerMonth: org.maxPackagesPerMonth,
        packagesThisMonth: org.currentMonthPackages,
        usageResetDate: isoOrNull(org.usageResetDate),
        billingCycle: org.billingCycle,
        lastPaymentDate: isoOrNull(org.lastPaymentDate),
        lastPaymentAmount: org.lastPaymentAmount,
        provider: (org.billingProvider as PaymentProvider | null) ?? null,
        customerId: org.stripeCustomerId,
        canWrite: block === null,
        blockedReason: block,
        cardTrialEndsAt: isoOrNull(carriedTrialEnd(org)),
      };
    },

    async activeLicenses(caller: OrgCaller): Promise<License[]> {
      const rows = await billingRepository.activeLicenses(db, caller.organizationId);
      return rows.map((l) => ({
        id: l.id,
        planType: l.planType,
        quantity: l.quantity,
        purchaseDate: iso(l.purchaseDate),
        startDate: iso(l.startDate),
        expirationDate: isoOrNull(l.expirationDate),
        pricePerLicense: l.pricePerLicense,
        totalAmount: l.totalAmount,
        isActive: l.isActive,
        cancelledAt: isoOrNull(l.cancelledAt),
        refundedAt: isoOrNull(l.refundedAt),
        provider: l.provider as PaymentProvider,
        subscriptionId: l.stripeSubscriptionId,
      }));
    },

    async payments(caller: OrgCaller): Promise<Payment[]> {
      const rows = await billingRepository.payments(db, caller.organizationId, 100);
      return rows.map((p) => ({
        id: p.id,
        provider: p.provider as PaymentProvider,
        status: p.status as Payment['status'],
        amount: p.amount,
        currency: p.currency,
        planType: p.planType,
        quantity: p.quantity,
        description: p.description,
        invoiceUrl: p.invoiceUrl,
        createdAt: iso(p.createdAt),
      }));
    },

    /**
     * Card checkout: a Stripe subscription Checkout Session for `quantity` seats (the rest of the
     * trial carried over), or, with DEMO_PAYMENTS, a checkout of the local demo provider.
     */
    async createCheckoutSession(caller: OrgCaller, body: CreateCheckoutSessionBody): Promise<CheckoutSessionReply> {
      requireCard();
      await throttle(caller);
      await checkSeats(caller, body.planId, body.quantity);
      const org = await organizationsRepository.findById(db, caller.organizationId);
      if (!org) throw notFound('Organization not found');
      const user = await usersRepository.findById(db, caller.userId);
      const customerEmail = body.customerEmail ?? org.billingEmail ?? user?.email ?? null;
      const amount = monthlyTotalCents(body.planId, body.quantity);
      const base = {
        organizationId: caller.organizationId,
        planType: body.planId,
        quantity: body.quantity,
        amount,
        currency: CURRENCY,
        customerEmail,
        createdBy: caller.userId,
      };
      if (!gateways.stripe) {
        const checkout = await billingRepository.insertCheckout(db, { ...base, provider: 'demo' });
        return { url: `/checkout/demo/${checkout.id}`, provider: 'demo' };
      }
      const checkoutId = crypto.randomUUID();
      const trialEnd = carriedTrialEnd(org);
      const realCustomer = org.stripeCustomerId && !org.stripeCustomerId.startsWith(DEMO_CUSTOMER_PREFIX);
      const session = await gateways.stripe
        .createCheckoutSession({
          organizationId: caller.organizationId,
          checkoutId,
          planType: body.planId,
          planName: PLANS[body.planId].name,
          quantity: body.quantity,
          unitAmount: PLANS[body.planId].pricePerUser,
          customerId: realCustomer ? org.stripeCustomerId : null,
          customerEmail: realCustomer ? null : customerEmail,
          trialEnd: trialEnd ? Math.floor(trialEnd.getTime() / 1000) : null,
          successUrl: `${publicUrl()}/settings-billing?checkout=success`,
          cancelUrl: `${publicUrl()}/checkout?cancelled=1`,
        })
        .catch(providerError);
      // Written once Stripe has the session: a provider that is down leaves nothing behind.
      await billingRepository.insertCheckout(db, {
        ...base,
        id: checkoutId,
        provider: 'stripe',
        providerRef: session.id,
      });
      return { url: session.url, provider: 'stripe' };
    },

    /** The organization's own Stripe customer portal; whatever customer id the client sends. */
    async createPortalSession(caller: OrgCaller, customerId: string | undefined) {
      const org = await organizationsRepository.findById(db, caller.organizationId);
      if (!org) throw notFound('Organization not found');
      if (!org.stripeCustomerId) throw notFound(BILLING_MESSAGES.noSubscription);
      if (customerId && customerId !== org.stripeCustomerId) {
        await refuse(caller, notFound(BILLING_MESSAGES.noSubscription), { customerId });
      }
      if (org.stripeCustomerId.startsWith(DEMO_CUSTOMER_PREFIX)) {
        throw conflict(BILLING_MESSAGES.demoEnvironment, 'demo_environment');
      }
      if (!gateways.stripe) throw unavailable(BILLING_MESSAGES.cardUnavailable);
      await throttle(caller);
      return gateways.stripe
        .createPortalSession(org.stripeCustomerId, `${publicUrl()}/settings-billing`)
        .catch(providerError);
    },

    async demoCheckout(caller: OrgCaller, id: string): Promise<DemoCheckout> {
      requireDemo();
      const checkout = await billingRepository.findCheckout(db, caller.organizationId, id, 'demo');
      if (!checkout || checkout.providerRef !== null) throw notFound(BILLING_MESSAGES.checkoutNotFound);
      return {
        id: checkout.id,
        planType: checkout.planType as PaidPlanType,
        quantity: checkout.quantity,
        amount: checkout.amount,
        currency: checkout.currency,
        status: checkout.status === 'completed' ? 'completed' : demoExpired(checkout) ? 'expired' : 'open',
        customerEmail: checkout.customerEmail,
      };
    },

    async completeDemoCheckout(caller: OrgCaller, id: string): Promise<Organization> {
      requireDemo();
      await throttle(caller);
      const checkout = await billingRepository.findCheckout(db, caller.organizationId, id, 'demo');
      if (!checkout || checkout.providerRef !== null) {
        await refuse(caller, notFound(BILLING_MESSAGES.checkoutNotFound), { checkoutId: id });
      }
      await completeDemo(caller, checkout!);
      return organizationOf(caller.organizationId);
    },

    async paypalSetup(): Promise<PaypalSetupReply> {
      requirePaypal();
      if (!gateways.paypal) return { clientToken: 'demo', clientId: null, demo: true };
      const clientToken = await gateways.paypal.clientToken().catch(providerError);
      return { clientToken, clientId: config.paypal?.clientId ?? null, demo: false };
    },

    /** A PayPal order for the plan's price: the server prices it; a client amount that disagrees is refused. */
    async createPaypalOrder(caller: OrgCaller, body: CreatePaypalOrderBody): Promise<PaypalOrderReply> {
      requirePaypal();
      await throttle(caller);
      await checkSeats(caller, body.planType, body.userCount);
      const amount = monthlyTotalCents(body.planType, body.userCount);
      const details = { planType: body.planType, userCount: body.userCount, amount: body.amount ?? null };
      if (body.amount !== undefined && parseAmountCents(body.amount) !== amount) {
        await refuse(caller, badRequest(BILLING_MESSAGES.amountMismatch, 'amount_mismatch'), details);
      }
      if (body.currency !== undefined && body.currency.toUpperCase() !== CURRENCY) {
        await refuse(caller, badRequest(`Payments are in ${CURRENCY}`, 'currency_mismatch'), details);
      }
      const base = {
        organizationId: caller.organizationId,
        planType: body.planType,
        quantity: body.userCount,
        amount,
        currency: CURRENCY,
        createdBy: caller.userId,
      };
      if (!gateways.paypal) {
        const id = `DEMO-${crypto.randomUUID()}`;
        await billingRepository.insertCheckout(db, { ...base, provider: 'demo', providerRef: id });
        return { id, status: 'CREATED' };
      }
      const checkoutId = crypto.randomUUID();
      const order = await gateways.paypal
        .createOrder({
          amount,
          currency: CURRENCY,
          description: `Pigeonhole ${planLabel(body.planType, body.userCount)}`,
          referenceId: checkoutId,
          customId: caller.organizationId,
        })
        .catch(providerError);
      await billingRepository.insertCheckout(db, {
        ...base,
        id: checkoutId,
        provider: 'paypal',
        providerRef: order.id,
      });
      return { id: order.id, status: order.status };
    },

    /**
     * Captures an order this organization created, and applies the plan only once PayPal itself
     * reports the capture COMPLETED for exactly the amount and currency priced.
     */
    async capturePaypalOrder(caller: OrgCaller, orderId: string, body: UpgradeBody): Promise<CaptureReply> {
      requirePaypal();
      await throttle(caller);
      const order = await billingRepository.findOrder(db, caller.organizationId, orderId);
      if (!order) return refuse(caller, notFound(BILLING_MESSAGES.orderNotFound), { orderId });
      // An order opened under another configuration: the demo provider switched off since, or
      // PayPal's keys removed. Neither can be completed now.
      const paypal = order.provider === 'demo' ? null : gateways.paypal;
      if (order.provider === 'demo') requireDemo();
      else if (!paypal) throw unavailable(BILLING_MESSAGES.paypalUnavailable);
      if (order.planType !== body.planType || order.quantity !== body.userCount) {
        await refuse(caller, badRequest('The plan or number of users differs from the order', 'order_mismatch'), {
          orderId,
          planType: body.planType,
          userCount: body.userCount,
        });
      }
      if (order.status === 'completed') {
        return { id: orderId, status: 'COMPLETED', organization: await organizationOf(caller.organizationId) };
      }
      if (order.provider === 'demo') {
        await completeDemo(caller, order);
        return { id: orderId, status: 'COMPLETED', organization: await organizationOf(caller.organizationId) };
      }
      if (!paypal) throw unavailable(BILLING_MESSAGES.paypalUnavailable);
      await checkSeats(caller, order.planType as PaidPlanType, order.quantity);
      if (!(await billingRepository.transitionCheckout(db, caller.organizationId, order.id, 'open', 'capturing'))) {
        throw conflict('This payment is already being confirmed', 'capture_in_progress');
      }
      let capture: PaypalCapture;
      try {
        capture = await paypal.captureOrder(orderId);
      } catch (err) {
        await billingRepository.transitionCheckout(db, caller.organizationId, order.id, 'capturing', 'open');
        if (err instanceof ProviderRefusedError) {
          return refuse(caller, paymentRequired(BILLING_MESSAGES.paymentNotCompleted, 'payment_not_completed'), {
            orderId,
            providerCode: err.providerCode,
          });
        }
        return providerError(err);
      }
      const problem = verifiedCapture(capture, order);
      if (problem) {
        await billingRepository.transitionCheckout(db, caller.organizationId, order.id, 'capturing', 'open');
        return refuse(caller, paymentRequired(BILLING_MESSAGES.paymentNotCompleted, 'payment_not_completed'), {
          orderId,
          problem,
        });
      }
      await db.transaction(async (tx) => {
        await billingRepository.transitionCheckout(tx, caller.organizationId, order.id, 'capturing', 'completed');
        await applyPurchase(
          tx,
          caller.organizationId,
          oneMonthPurchase(
            order,
            'paypal',
            capture.captureId ?? orderId,
            planLabel(order.planType as PaidPlanType, order.quantity),
          ),
          actorOf(caller),
        );
      });
      return { id: orderId, status: 'COMPLETED', organization: await organizationOf(caller.organizationId) };
    },

    /**
     * The spec's client posts this after a PayPal payment: it answers the organization when a
     * verified payment backs exactly this plan and seat count, and grants nothing by itself.
     */
    async upgrade(caller: OrgCaller, body: UpgradeBody): Promise<Organization> {
      const org = await organizationOf(caller.organizationId);
      const backed =
        org.planType === body.planType &&
        org.maxUsers === body.userCount &&
        org.subscriptionStatus === 'active' &&
        (await billingRepository.hasActiveLicense(db, caller.organizationId, body.planType, body.userCount));
      if (!backed) {
        await refuse(caller, paymentRequired(BILLING_MESSAGES.paymentRequired, 'payment_required'), body);
      }
      return org;
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
