import type Stripe from 'stripe';
import { PLANS, PaidPlanType } from '../../../contract';
import type { Deps } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest } from '../../lib/errors';
import { auditRepository } from '../audit/audit.repository';
import { queuePaymentFailedEmails } from './billing-emails';
import { logWebhookFailure } from '../super-admin/platform-events';
import { billingRepository } from './billing.repository';
import { WebhookSignatureError, type StripeGateway } from './gateways';
import { applyPurchase, applySubscriptionState, planLimits } from './plan-changes';

/**
 * POST /api/webhooks/stripe. An event is trusted only after its Stripe-Signature verifies against
 * the raw body. Each event id is claimed in the same transaction as its effect, so a replay
 * changes nothing twice; subscription states carry the event's `created` time and an older one
 * arriving after a newer one is recorded but not applied. Plans and seats come from our own
 * checkout rows and the subscription's metadata we wrote, and the organization must own the
 * Stripe customer: an event for a customer we do not know answers 400 and grants nothing.
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
  const details = parent?.subscription_details as Loose | undefined;
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
  };
}

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

  async function checkoutCompleted(tx: DbOrTx, event: Stripe.Event) {
    const session = event.data.object as unknown as Loose;
    const organizationId = str(session.client_reference_id) ?? metadataOf(session).organizationId ?? null;
    const sessionId = str(session.id)!;
    if (!isUuid(organizationId)) throw unknownCustomer();
    const checkout = await billingRepository.findStripeCheckout(tx, organizationId, sessionId);
    if (!checkout) throw unknownCustomer();
    await billingRepository.transitionCheckout(tx, organizationId, checkout.id, 'open', 'completed');
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

  async function invoicePaid(tx: DbOrTx, event: Stripe.Event) {
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
