import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../contract';
import {
  auditLog,
  billingCheckouts,
  billingPayments,
  notificationJobs,
  organizationLicenses,
  organizations,
} from '../../db/schema';
import { adminAndMember, type Client, createTestApp, postRaw, type TestApp } from '../../test/harness';
import { signStripePayload, startStripeServer, stripeEvent } from '../../test/stripe-server';
import { WEBHOOK_MESSAGES } from './stripe-webhooks';

/**
 * Card payments through Stripe's API as a local server speaks it (the official SDK pointed at it),
 * and Stripe's webhook events signed with the SDK's own test-header helper.
 */

const WEBHOOK_SECRET = 'whsec_test_pigeonhole';
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
let t: TestApp;

beforeAll(async () => {
  stripe = await startStripeServer();
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_pigeonhole',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    APP_URL: 'https://desk.example.com',
  });
});
afterAll(async () => stripe.close());

const setup = (name?: string) => adminAndMember(t, name);

const orgRow = async (id: string) => (await t.db.select().from(organizations).where(eq(organizations.id, id)))[0]!;
const licences = (id: string) =>
  t.db.select().from(organizationLicenses).where(eq(organizationLicenses.organizationId, id));
const payments = (id: string) => t.db.select().from(billingPayments).where(eq(billingPayments.organizationId, id));

/** Posts an event to the webhook as Stripe would: signed, raw JSON. */
async function deliver(event: object, secret = WEBHOOK_SECRET, signature?: string) {
  const payload = JSON.stringify(event);
  const signed = signature !== undefined || secret;
  return postWebhook(payload, signed ? { 'stripe-signature': signature ?? signStripePayload(payload, secret) } : {});
}

/** Posts raw JSON to the webhook with these headers (a signature or none). */
function postWebhook(payload: string, headers: Record<string, string> = {}) {
  return postRaw(t, '/api/webhooks/stripe', 'application/json', payload, headers);
}

/** Starts a checkout and answers the session Stripe created. */
async function startCheckout(c: Client, planId = 'professional', quantity = 5) {
  const res = await c.post('/api/billing/create-checkout-session', { planId, quantity });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ url: string; provider: string }>();
  expect(body.provider).toBe('stripe');
  const request = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1)!;
  const [checkout] = await t.db
    .select()
    .from(billingCheckouts)
    .where(eq(billingCheckouts.providerRef, new URL(body.url).pathname.split('/').at(-1)!));
  return { url: body.url, request, sessionId: checkout!.providerRef!, checkoutId: checkout!.id };
}

const now = () => Math.floor(Date.now() / 1000);

function completedSession(orgId: string, sessionId: string, customer: string, subscription: string, amountTotal = 0) {
  return stripeEvent('checkout.session.completed', {
    id: sessionId,
    object: 'checkout.session',
    client_reference_id: orgId,
    customer,
    subscription,
    mode: 'subscription',
    amount_total: amountTotal,
    currency: 'usd',
    payment_status: amountTotal > 0 ? 'paid' : 'no_payment_required',
    metadata: { organizationId: orgId },
  });
}

function subscription(
  id: string,
  customer: string,
  fields: { status?: string; quantity?: number; planType?: string; periodEnd?: number; orgId?: string },
) {
  return {
    id,
    object: 'subscription',
    customer,
    status: fields.status ?? 'active',
    metadata: { planType: fields.planType ?? 'professional', organizationId: fields.orgId ?? '' },
    items: {
      object: 'list',
      data: [
        { id: `si_${id}`, quantity: fields.quantity ?? 5, current_period_end: fields.periodEnd ?? now() + 30 * 86400 },
      ],
    },
  };
}

describe('POST /api/billing/create-checkout-session', () => {
  it('creates a subscription Checkout Session: seats, price, organization, trial days carried over', async () => {
    const { admin, org, account } = await setup();
    const { url, request } = await startCheckout(admin, 'professional', 5);
    expect(url.startsWith(stripe.url)).toBe(true);
    const body = request.body as {
      mode: string;
      client_reference_id: string;
      metadata: Record<string, string>;
      line_items: Array<Record<string, unknown>>;
      subscription_data: { metadata: Record<string, string>; trial_end: string };
      customer_email: string;
      success_url: string;
    };
    expect(body.mode).toBe('subscription');
    expect(body.client_reference_id).toBe(org.id);
    expect(body.metadata).toMatchObject({ organizationId: org.id, planType: 'professional', quantity: '5' });
    expect(body.line_items[0]).toMatchObject({
      quantity: '5',
      price_data: { currency: 'usd', unit_amount: '3500', recurring: { interval: 'month' } },
    });
    expect(body.subscription_data.metadata).toMatchObject({ organizationId: org.id, planType: 'professional' });
    // The trial's remaining days (about 7) carry over into Stripe's trial.
    const trialEnd = Number(body.subscription_data.trial_end);
    expect(trialEnd - now()).toBeGreaterThan(6.9 * 86400);
    expect(body.customer_email).toBe(account.email);
    expect(body.success_url).toBe('https://desk.example.com/settings-billing?checkout=success');
    expect(request.headers.authorization).toBe('Bearer sk_test_pigeonhole');
  });

  it("tells the checkout whether the card starts with the trial: only when Stripe gets the trial's rest (49 h or more)", async () => {
    const { admin, org } = await setup();
    const trialEnd = (await orgRow(org.id)).trialEndDate!;
    const summary = (await admin.get('/api/licenses/summary')).json<{ cardTrialEndsAt: string | null }>();
    expect(summary.cardTrialEndsAt).toBe(trialEnd.toISOString());
    const carried = (await startCheckout(admin)).request.body as { subscription_data: { trial_end?: string } };
    expect(Number(carried.subscription_data.trial_end)).toBe(Math.floor(trialEnd.getTime() / 1000));

    // 48 hours left: Stripe would refuse the trial_end, so the card is charged at once, and says so.
    await t.db
      .update(organizations)
      .set({ trialEndDate: new Date(Date.now() + 48 * 3600_000) })
      .where(eq(organizations.id, org.id));
    expect((await admin.get('/api/licenses/summary')).json()).toMatchObject({ cardTrialEndsAt: null });
    const charged = (await startCheckout(admin)).request.body as { subscription_data: { trial_end?: string } };
    expect(charged.subscription_data.trial_end).toBeUndefined();

    // A paid plan has no trial to carry.
    await t.db
      .update(organizations)
      .set({ planType: 'starter', subscriptionStatus: 'active' })
      .where(eq(organizations.id, org.id));
    expect((await admin.get('/api/licenses/summary')).json()).toMatchObject({ cardTrialEndsAt: null });
  });

  it('answers 502 with a message a person understands when Stripe is down, and keeps nothing', async () => {
    const { admin, org } = await setup();
    stripe.setDown(true);
    try {
      const res = await admin.post('/api/billing/create-checkout-session', { planId: 'starter', quantity: 2 });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ message: BILLING_MESSAGES.providerDown });
    } finally {
      stripe.setDown(false);
    }
    const rows = await t.db.select().from(billingCheckouts).where(eq(billingCheckouts.organizationId, org.id));
    expect(rows).toEqual([]);
  });
});

describe('billing writes per organization (issue 24: 30 checkout sessions in 1.2 s reached Stripe)', () => {
  it('answers the 11th checkout session within a minute 429 with Retry-After, and Stripe received 10', async () => {
    const { admin, org } = await setup();
    const sessionsOf = (id: string) =>
      stripe.requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path === '/v1/checkout/sessions' &&
          (r.body as { client_reference_id?: string }).client_reference_id === id,
      ).length;
    // As the probe sent them: all at once.
    const replies = await Promise.all(
      Array.from({ length: 11 }, () =>
        admin.post('/api/billing/create-checkout-session', { planId: 'professional', quantity: 5 }),
      ),
    );
    const statuses = replies.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
    const limited = replies.find((r) => r.statusCode === 429)!;
    expect(limited.json()).toEqual({ message: BILLING_MESSAGES.tooManyBillingRequests, code: 'rate_limited' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(sessionsOf(org.id)).toBe(10);
    const rows = await t.db.select().from(billingCheckouts).where(eq(billingCheckouts.organizationId, org.id));
    expect(rows).toHaveLength(10);

    // The portal counts against the same budget; another organization has its own.
    stripe.addCustomer('cus_throttled');
    await t.db.update(organizations).set({ stripeCustomerId: 'cus_throttled' }).where(eq(organizations.id, org.id));
    expect((await admin.post('/api/billing/create-portal-session', {})).statusCode).toBe(429);
    const other = await setup('Other');
    const theirs = await other.admin.post('/api/billing/create-checkout-session', { planId: 'starter', quantity: 2 });
    expect(theirs.statusCode, theirs.body).toBe(200);
  });
});

describe('POST /api/webhooks/stripe', () => {
  it('refuses unsigned, mis-signed and tampered events with 400 and changes nothing', async () => {
    const { admin, org } = await setup();
    const { sessionId } = await startCheckout(admin);
    const event = completedSession(org.id, sessionId, 'cus_tamper', 'sub_tamper');
    const payload = JSON.stringify(event);
    const unsigned = await postWebhook(payload);
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toMatchObject({ code: 'invalid_signature', message: WEBHOOK_MESSAGES.badSignature });
    expect((await deliver(event, 'whsec_wrong')).statusCode).toBe(400);
    const tampered = await postWebhook(payload.replace('cus_tamper', 'cus_other'), {
      'stripe-signature': signStripePayload(payload, WEBHOOK_SECRET),
    });
    expect(tampered.statusCode).toBe(400);
    expect(await orgRow(org.id)).toMatchObject({ planType: 'trial', stripeCustomerId: null });
  });

  it('applies a completed checkout once: plan, seats, customer, licence; a replay changes nothing', async () => {
    const { admin, org } = await setup();
    const { sessionId } = await startCheckout(admin, 'professional', 5);
    const event = completedSession(org.id, sessionId, 'cus_harbor', 'sub_harbor', 17500);
    const first = await deliver(event);
    expect(first.statusCode, first.body).toBe(200);
    expect(await orgRow(org.id)).toMatchObject({
      planType: 'professional',
      subscriptionStatus: 'active',
      maxUsers: 5,
      maxPackagesPerMonth: -1,
      stripeCustomerId: 'cus_harbor',
      stripeSubscriptionId: 'sub_harbor',
      billingProvider: 'stripe',
    });
    const replay = await deliver(event);
    expect(replay.json()).toMatchObject({ received: true, duplicate: true });
    expect(await licences(org.id)).toMatchObject([{ planType: 'professional', quantity: 5, sourceRef: 'sub_harbor' }]);
    expect(await payments(org.id)).toHaveLength(1);
  });

  it("refuses a session of another organization's checkout, or an unknown customer (400), granting nothing", async () => {
    const a = await setup('A');
    const b = await setup('B');
    const { sessionId } = await startCheckout(a.admin);
    const crossed = await deliver(completedSession(b.org.id, sessionId, 'cus_cross', 'sub_cross'));
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json()).toMatchObject({ code: 'unknown_customer' });
    const unknown = await deliver(
      stripeEvent('customer.subscription.updated', subscription('sub_nobody', 'cus_nobody', { quantity: 9 })),
    );
    expect(unknown.statusCode).toBe(400);
    expect(await orgRow(a.org.id)).toMatchObject({ planType: 'trial' });
    expect(await orgRow(b.org.id)).toMatchObject({ planType: 'trial' });
  });

  it('follows the subscription: seats change, an older event delivered late changes nothing, deletion cancels', async () => {
    const { admin, member, org } = await setup();
    const { sessionId } = await startCheckout(admin, 'professional', 5);
    await deliver(completedSession(org.id, sessionId, 'cus_seats', 'sub_seats'));
    const t0 = now();
    const newer = stripeEvent(
      'customer.subscription.updated',
      subscription('sub_seats', 'cus_seats', { quantity: 8 }),
      {
        created: t0 + 20,
      },
    );
    const older = stripeEvent(
      'customer.subscription.updated',
      subscription('sub_seats', 'cus_seats', { quantity: 3 }),
      {
        created: t0 + 10,
      },
    );
    expect((await deliver(newer)).statusCode).toBe(200);
    expect((await deliver(older)).statusCode).toBe(200);
    expect(await orgRow(org.id)).toMatchObject({ maxUsers: 8 });
    expect(await licences(org.id)).toMatchObject([{ quantity: 8, isActive: true }]);

    const deleted = stripeEvent(
      'customer.subscription.deleted',
      subscription('sub_seats', 'cus_seats', { status: 'canceled', quantity: 8 }),
      { created: t0 + 30 },
    );
    expect((await deliver(deleted)).statusCode).toBe(200);
    expect(await orgRow(org.id)).toMatchObject({ subscriptionStatus: 'cancelled' });
    expect(await licences(org.id)).toMatchObject([{ isActive: false }]);
    const item = await member.post('/api/mail-items', { type: 'letter' });
    expect(item.statusCode).toBe(402);
    expect(item.json()).toMatchObject({ code: 'subscription_inactive' });
  });

  it('applies a subscription that arrives before its checkout.session.completed', async () => {
    const { admin, org } = await setup();
    const { sessionId, checkoutId } = await startCheckout(admin, 'starter', 2);
    const created = stripeEvent('customer.subscription.created', {
      ...subscription('sub_early', 'cus_early', {
        quantity: 2,
        planType: 'starter',
        orgId: org.id,
        status: 'trialing',
      }),
      metadata: { organizationId: org.id, checkoutId, planType: 'starter', quantity: '2' },
    });
    expect((await deliver(created)).statusCode).toBe(200);
    expect(await orgRow(org.id)).toMatchObject({ planType: 'starter', maxUsers: 2, stripeCustomerId: 'cus_early' });
    const completed = completedSession(org.id, sessionId, 'cus_early', 'sub_early');
    expect((await deliver({ ...completed, created: now() - 60 })).statusCode).toBe(200);
    expect(await orgRow(org.id)).toMatchObject({ planType: 'starter', maxUsers: 2, subscriptionStatus: 'active' });
    expect(await licences(org.id)).toHaveLength(1);
  });

  it('records paid and failed invoices; a failure is audited and emails the admins once', async () => {
    const { admin, org, account } = await setup();
    const { sessionId } = await startCheckout(admin, 'professional', 5);
    await deliver(completedSession(org.id, sessionId, 'cus_inv', 'sub_inv'));
    const periodEnd = now() + 31 * 86400;
    const paid = stripeEvent('invoice.paid', {
      id: 'in_paid',
      object: 'invoice',
      customer: 'cus_inv',
      subscription: 'sub_inv',
      amount_paid: 17500,
      amount_due: 17500,
      currency: 'usd',
      hosted_invoice_url: 'https://invoice.stripe.test/in_paid',
      lines: { object: 'list', data: [{ quantity: 5, period: { start: now(), end: periodEnd } }] },
    });
    expect((await deliver(paid)).statusCode).toBe(200);
    expect(await orgRow(org.id)).toMatchObject({ lastPaymentAmount: 17500 });
    expect((await orgRow(org.id)).nextBillingDate?.getTime()).toBe(periodEnd * 1000);
    const history = (await admin.get('/api/billing/payments')).json<Array<Record<string, unknown>>>();
    expect(history).toMatchObject([
      { status: 'paid', amount: 17500, invoiceUrl: 'https://invoice.stripe.test/in_paid' },
    ]);

    const failed = stripeEvent('invoice.payment_failed', {
      id: 'in_failed',
      object: 'invoice',
      customer: 'cus_inv',
      subscription: 'sub_inv',
      amount_paid: 0,
      amount_due: 17500,
      currency: 'usd',
      hosted_invoice_url: null,
      lines: { object: 'list', data: [] },
    });
    expect((await deliver(failed)).statusCode).toBe(200);
    expect((await deliver(failed)).json()).toMatchObject({ duplicate: true });
    expect(await payments(org.id)).toHaveLength(2);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, org.id), eq(auditLog.action, 'billing.payment_failed')));
    expect(entries).toHaveLength(1);
    const emails = await t.db
      .select()
      .from(notificationJobs)
      .where(and(eq(notificationJobs.organizationId, org.id), eq(notificationJobs.channel, 'email')));
    expect(emails.map((e) => e.destination)).toEqual([account.email]);
  });
});

describe('a payment Stripe has not received yet grants nothing (issue 24)', () => {
  /** A session event for our checkout, with Stripe's payment_status. */
  function sessionEvent(
    type: string,
    orgId: string,
    sessionId: string,
    ids: { customer: string; subscription: string },
    paymentStatus: 'paid' | 'unpaid',
    created = now(),
  ) {
    return stripeEvent(
      type,
      {
        id: sessionId,
        object: 'checkout.session',
        client_reference_id: orgId,
        customer: ids.customer,
        subscription: ids.subscription,
        mode: 'subscription',
        amount_total: 17500,
        currency: 'usd',
        payment_status: paymentStatus,
        metadata: { organizationId: orgId },
      },
      { created },
    );
  }
  /** A subscription event carrying the metadata our checkout wrote. */
  const subscriptionEvent = (
    type: string,
    ids: { customer: string; subscription: string },
    meta: { orgId: string; checkoutId: string; planType: string; quantity: number },
    status: string,
    created = now(),
  ) =>
    stripeEvent(
      type,
      {
        ...subscription(ids.subscription, ids.customer, { status, quantity: meta.quantity, planType: meta.planType }),
        metadata: {
          organizationId: meta.orgId,
          checkoutId: meta.checkoutId,
          planType: meta.planType,
          quantity: String(meta.quantity),
        },
      },
      { created },
    );
  const trialState = { planType: 'trial', subscriptionStatus: 'trial', maxUsers: 5, stripeCustomerId: null };
  /** On the plan paid for, with that many users, for Stripe's customer. */
  const paidState = (planType: string, maxUsers: number, stripeCustomerId: string) => ({
    planType,
    subscriptionStatus: 'active',
    maxUsers,
    stripeCustomerId,
  });
  const checkoutStatus = async (id: string) =>
    (await t.db.select().from(billingCheckouts).where(eq(billingCheckouts.id, id)))[0]!.status;

  it("checkout.session.completed with payment_status 'unpaid' grants nothing; async_payment_succeeded does", async () => {
    const { admin, org } = await setup();
    const { sessionId, checkoutId } = await startCheckout(admin, 'professional', 5);
    const ids = { customer: 'cus_async', subscription: 'sub_async' };
    const unpaid = await deliver(sessionEvent('checkout.session.completed', org.id, sessionId, ids, 'unpaid'));
    expect(unpaid.statusCode, unpaid.body).toBe(200);
    expect(await orgRow(org.id)).toMatchObject(trialState);
    expect(await licences(org.id)).toEqual([]);
    expect(await payments(org.id)).toEqual([]);
    expect(await checkoutStatus(checkoutId)).toBe('awaiting_payment');

    const paid = await deliver(
      sessionEvent('checkout.session.async_payment_succeeded', org.id, sessionId, ids, 'paid', now() + 60),
    );
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await orgRow(org.id)).toMatchObject(paidState('professional', 5, 'cus_async'));
    expect(await payments(org.id)).toMatchObject([{ status: 'paid', amount: 17500 }]);
    expect(await checkoutStatus(checkoutId)).toBe('completed');
  });

  it('an async payment that fails grants nothing and closes the checkout', async () => {
    const { admin, org } = await setup();
    const { sessionId, checkoutId } = await startCheckout(admin, 'professional', 5);
    const ids = { customer: 'cus_async_fail', subscription: 'sub_async_fail' };
    await deliver(sessionEvent('checkout.session.completed', org.id, sessionId, ids, 'unpaid'));
    const failed = await deliver(
      sessionEvent('checkout.session.async_payment_failed', org.id, sessionId, ids, 'unpaid', now() + 60),
    );
    expect(failed.statusCode, failed.body).toBe(200);
    expect(await orgRow(org.id)).toMatchObject(trialState);
    expect(await checkoutStatus(checkoutId)).toBe('failed');
  });

  it('an incomplete subscription grants nothing (seats included); once active it grants the plan', async () => {
    const { admin, org } = await setup();
    const { sessionId, checkoutId } = await startCheckout(admin, 'enterprise', 500);
    const ids = { customer: 'cus_incomplete', subscription: 'sub_incomplete' };
    const meta = { orgId: org.id, checkoutId, planType: 'enterprise', quantity: 500 };
    const t0 = now();
    for (const event of [
      subscriptionEvent('customer.subscription.created', ids, meta, 'incomplete', t0),
      sessionEvent('checkout.session.completed', org.id, sessionId, ids, 'unpaid', t0 + 1),
    ]) {
      const res = await deliver(event);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await orgRow(org.id)).toMatchObject(trialState);
    expect(await licences(org.id)).toEqual([]);

    const active = await deliver(subscriptionEvent('customer.subscription.updated', ids, meta, 'active', t0 + 10));
    expect(active.statusCode, active.body).toBe(200);
    expect(await orgRow(org.id)).toMatchObject(paidState('enterprise', 500, 'cus_incomplete'));
    expect(await checkoutStatus(checkoutId)).toBe('completed');
  });

  it('an incomplete subscription that expires unpaid leaves the plan the organization has', async () => {
    const { admin, org } = await setup();
    // Paid for by PayPal earlier: Starter, 3 seats, active.
    await t.db
      .update(organizations)
      .set({ planType: 'starter', subscriptionStatus: 'active', maxUsers: 3, billingProvider: 'paypal' })
      .where(eq(organizations.id, org.id));
    const { checkoutId } = await startCheckout(admin, 'enterprise', 500);
    const ids = { customer: 'cus_expired', subscription: 'sub_expired' };
    const meta = { orgId: org.id, checkoutId, planType: 'enterprise', quantity: 500 };
    const t0 = now();
    await deliver(subscriptionEvent('customer.subscription.created', ids, meta, 'incomplete', t0));
    const expired = await deliver(
      subscriptionEvent('customer.subscription.updated', ids, meta, 'incomplete_expired', t0 + 10),
    );
    expect(expired.statusCode, expired.body).toBe(200);
    expect(await orgRow(org.id)).toMatchObject({ planType: 'starter', subscriptionStatus: 'active', maxUsers: 3 });
  });

  it('invoice.paid for the subscription of a checkout awaiting its payment grants it', async () => {
    const { admin, org } = await setup();
    const { sessionId, checkoutId } = await startCheckout(admin, 'professional', 7);
    const ids = { customer: 'cus_invoice_grant', subscription: 'sub_invoice_grant' };
    await deliver(sessionEvent('checkout.session.completed', org.id, sessionId, ids, 'unpaid'));
    expect(await orgRow(org.id)).toMatchObject(trialState);
    const periodEnd = now() + 30 * 86400;
    const paid = await deliver(
      stripeEvent('invoice.paid', {
        id: 'in_first_async',
        object: 'invoice',
        customer: ids.customer,
        amount_paid: 24500,
        amount_due: 24500,
        currency: 'usd',
        hosted_invoice_url: null,
        parent: {
          type: 'subscription_details',
          subscription_details: {
            subscription: ids.subscription,
            metadata: { organizationId: org.id, checkoutId, planType: 'professional', quantity: '7' },
          },
        },
        lines: { object: 'list', data: [{ quantity: 7, period: { start: now(), end: periodEnd } }] },
      }),
    );
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await orgRow(org.id)).toMatchObject({
      ...paidState('professional', 7, ids.customer),
      stripeSubscriptionId: ids.subscription,
    });
    expect(await payments(org.id)).toMatchObject([{ providerRef: 'in_first_async', amount: 24500 }]);
    expect(await checkoutStatus(checkoutId)).toBe('completed');
  });
});

describe('POST /api/billing/create-portal-session', () => {
  it("opens the organization's own customer portal only", async () => {
    const { admin, org } = await setup();
    const { sessionId } = await startCheckout(admin);
    stripe.addCustomer('cus_portal');
    await deliver(completedSession(org.id, sessionId, 'cus_portal', 'sub_portal'));
    const res = await admin.post('/api/billing/create-portal-session', { customerId: 'cus_portal' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ url: string }>().url).toContain(stripe.url);
    const request = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(request.body).toMatchObject({
      customer: 'cus_portal',
      return_url: 'https://desk.example.com/settings-billing',
    });

    const other = await admin.post('/api/billing/create-portal-session', { customerId: 'cus_someone_else' });
    expect(other.statusCode).toBe(404);
  });
});
