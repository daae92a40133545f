import type Stripe from 'stripe';
import { PLANS, PaidPlanType } from '../../../contract';
import type { Deps } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest } from '../../lib/errors';
import { auditRepository } from '../audit/audit.repository';
import { queuePaymentFailedEmails } from './billing-emails';
import { logWebhookFailure } from '../audit/platform-events';
import { billingRepository, type CheckoutRow } from './billing.repository';
import { WebhookSignatureError, type StripeGateway } from './gateways';
import { applyPurchase, applySubscriptionState, planLimits } from './plan-changes';

/**
 * POST /api/webhooks/stripe. An event is trusted only after its Stripe-Signature verifies against
 * the raw body. Each event id is claimed in the same transaction as its effect, so a replay
 * changes nothing twice; subscription states carry the event's `created` time and an older one
 * arriving after a newer one is recorded but not applied. Plans and seats come from our own
 * checkout rows and the subscription's metadata we wrote, and the organization must own the
 * Stripe customer: an event for a customer we do not know answers 400 and grants nothing.
 *
 * Nothing is granted before Stripe has the money (or none is due: a trial). A session completed
 * with payment_status 'unpaid' (a bank debit still clearing) leaves its checkout
 * awaiting_payment; an 'incomplete' subscription changes nothing. The plan follows the first of
 * checkout.session.async_payment_succeeded, the subscription becoming active or trialing, or
 * invoice.paid for that subscription; async_payment_failed or 'incomplete_expired' close it.
 */

export const WEBHOOK_MESSAGES = {
  notConfigured: 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)',
  badSignature: 'Invalid Stripe signature',
  unknownCustomer: 'Unknown Stripe customer or checkout',
} as const;

type Outcome = { received: true; duplicate?: boolean; ignored?: boolean };

/** Stripe objects change shape between API versions; read the fields we need from either. */
type Loose = Record<string, unknown>;
const str = (v: unknown): string | null =>
  typeof v === 'string' ? v : v && typeof v === 'object' && 'id' in v ? String((v as Loose).id) : null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const fromUnix = (v: unknown): Date | null => (num(v) === null ? null : new Date(num(v)! * 1000));
const metadataOf = (o: Loose) =>
  o.metadata && typeof o.metadata === 'object' ? (o.metadata as Record<string, string>) : {};

/** Stripe's subscription status as ours: null leaves ours as it is (a payment still being attempted). */
function statusOf(stripeStatus: string): 'active' | 'expired' | 'cancelled' | null {
  switch (stripeStatus) {
    case 'active':
    case 'trialing':
    case 'past_due':
      return 'active';
    case 'canceled':
      return 'cancelled';
    case 'unpaid':
    case 'incomplete_expired':
    case 'paused':
      return 'expired';
    default:
      return null;
  }
}

function subscriptionFacts(sub: Loose) {
  const items = ((sub.items as Loose | undefined)?.data as Loose[] | undefined) ?? [];
  const item = items[0] ?? {};
  const metadata = metadataOf(sub);
  const plan = PaidPlanType.safeParse(metadata.planType);
  return {
    id: str(sub.id)!,
    customerId: str(sub.customer),
    status: String(sub.status ?? ''),
    quantity: num(item.quantity) ?? num(sub.quantity),
    planType: plan.success ? plan.data : null,
    periodEnd: fromUnix(item.current_period_end ?? sub.current_period_end),
    organizationId: metadata.organizationId ?? null,
    checkoutId: metadata.checkoutId ?? null,
  };
}

function invoiceFacts(invoice: Loose) {
  const parent = invoice.parent as Loose | undefined;
  // Where the subscription's metadata travels: parent.subscription_details since API 2025-03,
  // subscription_details before.
  const details = (parent?.subscription_details ?? invoice.subscription_details) as Loose | undefined;
  const metadata = details ? metadataOf(details) : {};
  const lines = ((invoice.lines as Loose | undefined)?.data as Loose[] | undefined) ?? [];
  const period = lines[0]?.period as Loose | undefined;
  return {
    id: str(invoice.id)!,
    customerId: str(invoice.customer),
    subscriptionId: str(invoice.subscription) ?? str(details?.subscription),
    amountPaid: num(invoice.amount_paid) ?? 0,
    amountDue: num(invoice.amount_due) ?? 0,
    currency: String(invoice.currency ?? 'usd').toUpperCase(),
    invoiceUrl: str(invoice.hosted_invoice_url),
    periodEnd: fromUnix(period?.end),
    quantity: num(lines[0]?.quantity),
    organizationId: metadata.organizationId ?? null,
    checkoutId: metadata.checkoutId ?? null,
  };
}

/** Stripe has the session's money, or none was due (a subscription starting with a trial). */
const sessionPaid = (session: Loose) =>
  session.payment_status === 'paid' || session.payment_status === 'no_payment_required';

const isUuid = (v: string | null): v is string =>
  v !== null && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

const unknownCustomer = () => badRequest(WEBHOOK_MESSAGES.unknownCustomer, 'unknown_customer');

export function createStripeWebhooks({ db, log }: Deps, stripe: StripeGateway | null) {
  /** The organization of a subscription: by its customer, or by the checkout our metadata names. */
  async function organizationOfSubscription(tx: DbOrTx, facts: ReturnType<typeof subscriptionFacts>) {
    const known = await billingRepository.organizationForStripe(tx, {
      customerId: facts.customerId,
      subscriptionId: facts.id,
    });
    if (known) return known;
    // Before checkout.session.completed has told us the customer (Stripe does not promise order).
    if (isUuid(facts.organizationId) && isUuid(facts.checkoutId)) {
      const checkout = await billingRepository.findCheckout(tx, facts.organizationId, facts.checkoutId, 'stripe');
      if (checkout) return billingRepository.stripeState(tx, facts.organizationId);
    }
    return undefined;
  }

  /** Older than the newest subscription state applied: recorded, not applied. */
  const isStale = (org: { stripeSubscriptionEventAt: Date | null }, at: Date) =>
    org.stripeSubscriptionEventAt !== null && org.stripeSubscriptionEventAt.getTime() > at.getTime();

  /** A session event's session, and our checkout it completes (400 unknown_customer if none). */
  async function sessionOf(tx: DbOrTx, event: Stripe.Event) {
    const session = event.data.object as unknown as Loose;
    const organizationId = str(session.client_reference_id) ?? metadataOf(session).organizationId ?? null;
    const sessionId = str(session.id)!;
    if (!isUuid(organizationId)) throw unknownCustomer();
    const checkout = await billingRepository.findStripeCheckout(tx, organizationId, sessionId);
    if (!checkout) throw unknownCustomer();
    return { session, organizationId, sessionId, checkout };
  }

  /** Marks a checkout completed, whether it was open or awaiting its payment. */
  async function completeCheckout(tx: DbOrTx, organizationId: string, checkoutId: string) {
    for (const from of ['open', 'awaiting_payment']) {
      await billingRepository.transitionCheckout(tx, organizationId, checkoutId, from, 'completed');
    }
  }

  async function checkoutCompleted(tx: DbOrTx, event: Stripe.Event) {
    const { session, organizationId, checkout } = await sessionOf(tx, event);
    if (!sessionPaid(session)) {
      // The money has not come in: nothing is granted until Stripe says it has.
      await billingRepository.transitionCheckout(tx, organizationId, checkout.id, 'open', 'awaiting_payment');
      return organizationId;
    }
    return grantSession(tx, event, organizationId, session, checkout);
  }

  async function asyncPaymentSucceeded(tx: DbOrTx, event: Stripe.Event) {
    const { session, organizationId, checkout } = await sessionOf(tx, event);
    if (!sessionPaid(session)) return organizationId;
    return grantSession(tx, event, organizationId, session, checkout);
  }

  async function asyncPaymentFailed(tx: DbOrTx, event: Stripe.Event) {
    const { organizationId, checkout } = await sessionOf(tx, event);
    await billingRepository.transitionCheckout(tx, organizationId, checkout.id, 'awaiting_payment', 'failed');
    return organizationId;
  }

  /** A session Stripe has been paid for (or owes nothing yet): the plan and seats of our checkout. */
  async function grantSession(
    tx: DbOrTx,
    event: Stripe.Event,
    organizationId: string,
    session: Loose,
    checkout: CheckoutRow,
  ) {
    const sessionId = str(session.id)!;
    await completeCheckout(tx, organizationId, checkout.id);
    const org = await billingRepository.stripeState(tx, organizationId);
    if (!org) throw unknownCustomer();
    const customerId = str(session.customer);
    const subscriptionId = str(session.subscription);
    const at = new Date(event.created * 1000);
    const planType = checkout.planType as PaidPlanType;
    const amountTotal = num(session.amount_total) ?? 0;
    const paid = session.payment_status === 'paid' && amountTotal > 0;
    if (isStale(org, at)) {
      // A newer subscription state is already applied: only remember who the customer is.
      await billingRepository.applyPlanState(tx, organizationId, {
        stripeCustomerId: customerId,
        stripeSubscriptionId: subscriptionId,
      });
      return organizationId;
    }
    await applyPurchase(
      tx,
      organizationId,
      {
        provider: 'stripe',
        planType,
        quantity: checkout.quantity,
        sourceRef: subscriptionId ?? sessionId,
        subscriptionId,
        periodEnd: null,
        payment: paid
          ? {
              providerRef: str(session.invoice) ?? sessionId,
              amount: amountTotal,
              currency: String(session.currency ?? 'usd').toUpperCase(),
              planType,
              quantity: checkout.quantity,
              description: `${PLANS[planType].name} plan, ${checkout.quantity} users, first month`,
              invoiceUrl: null,
            }
          : null,
        customer: { customerId, subscriptionId },
      },
      { userId: null },
    );
    await billingRepository.applyPlanState(tx, organizationId, { stripeSubscriptionEventAt: at });
    return organizationId;
  }

  async function subscriptionChanged(tx: DbOrTx, event: Stripe.Event) {
    const facts = subscriptionFacts(event.data.object as unknown as Loose);
    const org = await organizationOfSubscription(tx, facts);
    if (!org) throw unknownCustomer();
    const at = new Date(event.created * 1000);
    if (isStale(org, at)) return org.id;
    const deleted = event.type === 'customer.subscription.deleted';
    // Its first payment has not come in ('incomplete'), or never will ('incomplete_expired'):
    // nothing was granted for it, so nothing changes, unless it is the organization's own
    // subscription already (then it ends like any other).
    const unpaid = facts.status === 'incomplete' || facts.status === 'incomplete_expired';
    if (!deleted && unpaid && org.stripeSubscriptionId !== facts.id) {
      if (facts.status === 'incomplete_expired' && isUuid(facts.checkoutId)) {
        await billingRepository.transitionCheckout(tx, org.id, facts.checkoutId, 'awaiting_payment', 'failed');
      }
      return org.id;
    }
    const status = deleted ? 'cancelled' : statusOf(facts.status);
    const seats = facts.quantity;
    const planType = facts.planType;
    await applySubscriptionState(
      tx,
      org.id,
      {
        ...(planType && seats ? planLimits(planType, seats) : {}),
        ...(status ? { subscriptionStatus: status } : {}),
        ...(facts.periodEnd ? { nextBillingDate: facts.periodEnd } : {}),
        stripeCustomerId: facts.customerId ?? org.stripeCustomerId,
        stripeSubscriptionId: facts.id,
        stripeSubscriptionEventAt: at,
        billingProvider: 'stripe',
      },
      { userId: null },
    );
    if (status === 'active' && isUuid(facts.checkoutId)) {
      // Paid (or trialing) now: the checkout that opened it no longer waits for its payment.
      await billingRepository.transitionCheckout(tx, org.id, facts.checkoutId, 'awaiting_payment', 'completed');
    }
    if (deleted) {
      await billingRepository.updateLicense(tx, org.id, 'stripe', facts.id, { isActive: false, cancelledAt: at });
    } else if (planType && seats) {
      const price = PLANS[planType].pricePerUser;
      await billingRepository.upsertLicense(tx, org.id, {
        provider: 'stripe',
        sourceRef: facts.id,
        planType,
        quantity: seats,
        pricePerLicense: price,
        totalAmount: price * seats,
        expirationDate: facts.periodEnd,
        subscriptionId: facts.id,
      });
    }
    return org.id;
  }

  /** The invoice's facts and the organization it bills (400 unknown_customer if none). */
  async function invoiceOf(tx: DbOrTx, event: Stripe.Event) {
    const invoice = invoiceFacts(event.data.object as unknown as Loose);
    const org = await billingRepository.organizationForStripe(tx, {
      customerId: invoice.customerId,
      subscriptionId: invoice.subscriptionId,
    });
    if (!org) throw unknownCustomer();
    return { invoice, org };
  }

  /**
   * The first invoice of a subscription whose checkout completed unpaid: the money is in, so the
   * plan and seats of our checkout (named in the subscription's metadata) are granted now.
   */
  async function grantAwaitedInvoice(tx: DbOrTx, event: Stripe.Event) {
    const invoice = invoiceFacts(event.data.object as unknown as Loose);
    if (invoice.amountPaid <= 0 || !isUuid(invoice.organizationId) || !isUuid(invoice.checkoutId)) return;
    const checkout = await billingRepository.findCheckout(tx, invoice.organizationId, invoice.checkoutId, 'stripe');
    if (!checkout || checkout.status !== 'awaiting_payment') return;
    await completeCheckout(tx, invoice.organizationId, checkout.id);
    const planType = checkout.planType as PaidPlanType;
    await applyPurchase(
      tx,
      invoice.organizationId,
      {
        provider: 'stripe',
        planType,
        quantity: checkout.quantity,
        sourceRef: invoice.subscriptionId ?? invoice.id,
        subscriptionId: invoice.subscriptionId,
        periodEnd: invoice.periodEnd,
        payment: {
          providerRef: invoice.id,
          amount: invoice.amountPaid,
          currency: invoice.currency,
          planType,
          quantity: checkout.quantity,
          description: `${PLANS[planType].name} plan, ${checkout.quantity} users, first month`,
          invoiceUrl: invoice.invoiceUrl,
        },
        customer: { customerId: invoice.customerId, subscriptionId: invoice.subscriptionId },
      },
      { userId: null },
    );
  }

  async function invoicePaid(tx: DbOrTx, event: Stripe.Event) {
    await grantAwaitedInvoice(tx, event);
    const { invoice, org } = await invoiceOf(tx, event);
    if (invoice.amountPaid > 0) {
      await billingRepository.recordPayment(tx, {
        organizationId: org.id,
        provider: 'stripe',
        providerRef: invoice.id,
        status: 'paid',
        amount: invoice.amountPaid,
        currency: invoice.currency,
        quantity: invoice.quantity,
        description: 'Subscription payment',
        invoiceUrl: invoice.invoiceUrl,
      });
      await billingRepository.applyPlanState(tx, org.id, {
        lastPaymentDate: new Date(event.created * 1000),
        lastPaymentAmount: invoice.amountPaid,
        ...(invoice.periodEnd ? { nextBillingDate: invoice.periodEnd } : {}),
      });
    }
    if (invoice.subscriptionId && invoice.periodEnd) {
      await billingRepository.updateLicense(tx, org.id, 'stripe', invoice.subscriptionId, {
        expirationDate: invoice.periodEnd,
      });
    }
    return org.id;
  }

  async function invoiceFailed(tx: DbOrTx, event: Stripe.Event) {
    const { invoice, org } = await invoiceOf(tx, event);
    const recorded = await billingRepository.recordPayment(tx, {
      organizationId: org.id,
      provider: 'stripe',
      providerRef: invoice.id,
      status: 'failed',
      amount: invoice.amountDue,
      currency: invoice.currency,
      quantity: invoice.quantity,
      description: 'Subscription payment failed',
      invoiceUrl: invoice.invoiceUrl,
    });
    if (recorded) {
      await auditRepository.record(tx, {
        organizationId: org.id,
        actorId: null,
        action: 'billing.payment_failed',
        targetType: 'billing',
        targetId: invoice.id,
        after: { amount: invoice.amountDue, currency: invoice.currency },
      });
      await queuePaymentFailedEmails(tx, org.id, {
        amount: invoice.amountDue,
        currency: invoice.currency,
        invoiceUrl: invoice.invoiceUrl,
        eventId: event.id,
      });
    }
    return org.id;
  }

  const handlers: Partial<Record<string, (tx: DbOrTx, event: Stripe.Event) => Promise<string>>> = {
    'checkout.session.completed': checkoutCompleted,
    'checkout.session.async_payment_succeeded': asyncPaymentSucceeded,
    'checkout.session.async_payment_failed': asyncPaymentFailed,
    'customer.subscription.created': subscriptionChanged,
    'customer.subscription.updated': subscriptionChanged,
    'customer.subscription.deleted': subscriptionChanged,
    'invoice.paid': invoicePaid,
    'invoice.payment_failed': invoiceFailed,
  };

  return {
    async handle(rawBody: Buffer, signature: string | undefined): Promise<Outcome> {
      if (!stripe) throw badRequest(WEBHOOK_MESSAGES.notConfigured, 'webhooks_not_configured');
      let event: Stripe.Event;
      try {
        event = stripe.constructEvent(rawBody, signature);
      } catch (err) {
        if (err instanceof WebhookSignatureError) {
          log.warn({ signature: signature ? 'present' : 'missing' }, 'stripe webhook refused: bad signature');
          await logWebhookFailure(db, 'stripe', {
            code: 'invalid_signature',
            message: signature ? WEBHOOK_MESSAGES.badSignature : 'No Stripe-Signature header',
          });
          throw badRequest(WEBHOOK_MESSAGES.badSignature, 'invalid_signature');
        }
        throw err;
      }
      const handler = handlers[event.type];
      try {
        return await db.transaction(async (tx) => {
          if (!(await billingRepository.claimEvent(tx, 'stripe', event.id, event.type))) {
            return { received: true, duplicate: true } as const;
          }
          if (!handler) return { received: true, ignored: true } as const;
          const organizationId = await handler(tx, event);
          await billingRepository.tagEvent(tx, 'stripe', event.id, organizationId);
          return { received: true } as const;
        });
      } catch (err) {
        if (err instanceof AppError) {
          log.warn({ eventId: event.id, type: event.type, code: err.code }, 'stripe webhook refused');
        }
        await logWebhookFailure(db, 'stripe', {
          code: err instanceof AppError ? (err.code ?? 'refused') : 'processing_failed',
          message: err instanceof AppError ? err.message : 'The event could not be processed',
          eventId: event.id,
          eventType: event.type,
        });
        throw err;
      }
    },
  };
}

export type StripeWebhooks = ReturnType<typeof createStripeWebhooks>;
