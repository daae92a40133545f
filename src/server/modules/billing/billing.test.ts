import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, PLANS } from '../../../contract';
import { auditLog, billingPayments, organizationLicenses, organizations } from '../../db/schema';
import { adminAndMember, Client, createTestApp, joinAs, type TestApp } from '../../test/harness';
import { BILLING_REFUSALS_AUDITED_PER_WINDOW } from './billing.service';
import { expireOneTimePlans } from './plan-expiry';

/**
 * Billing without provider keys: the plan table, the licence summary, seats, the demo provider
 * (card checkout and PayPal), the upgrade call, and what an organization may do when its trial or
 * subscription has ended. Stripe and PayPal against local servers are in stripe.test.ts and
 * paypal.test.ts.
 */

type Org = { id: string; planType: string; subscriptionStatus: string; maxUsers: number; maxPackagesPerMonth: number };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const setup = (name?: string) => adminAndMember(t, name);

const orgRow = async (id: string) => (await t.db.select().from(organizations).where(eq(organizations.id, id)))[0]!;
const licences = (id: string) =>
  t.db.select().from(organizationLicenses).where(eq(organizationLicenses.organizationId, id));
const payments = (id: string) => t.db.select().from(billingPayments).where(eq(billingPayments.organizationId, id));
const audit = (id: string, action: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.organizationId, id), eq(auditLog.action, action)));

async function demoCheckout(c: Client, planId: string, quantity: number) {
  const res = await c.post('/api/billing/create-checkout-session', { planId, quantity });
  expect(res.statusCode, res.body).toBe(200);
  const { url, provider } = res.json<{ url: string; provider: string }>();
  expect(provider).toBe('demo');
  const id = /^\/checkout\/demo\/([0-9a-f-]{36})$/.exec(url)?.[1];
  expect(id, url).toBeDefined();
  return id!;
}

describe('GET /api/plans', () => {
  it('serves the one plan table publicly, with demo mode when no provider keys are set', async () => {
    const res = await new Client(t).get('/api/plans');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ plans: Array<Record<string, unknown>>; demoMode: boolean; providers: unknown }>();
    expect(body.plans.map((p) => [p.id, p.pricePerUser, p.minUsers, p.maxUsers, p.maxPackagesPerMonth])).toEqual([
      ['starter', 2500, 1, 3, 1000],
      ['professional', 3500, 1, 10, -1],
      ['enterprise', 4500, 10, 1000, -1],
    ]);
    expect(body.plans.filter((p) => p.mostPopular).map((p) => p.id)).toEqual(['professional']);
    expect(body.demoMode).toBe(true);
    expect(body.providers).toEqual({ card: 'demo', paypal: 'demo' });
    // the landing page's Contact Sales writes here (SALES_EMAIL)
    expect(res.json<{ salesEmail: string }>().salesEmail).toBe('sales@pigeonhole.local');
  });
});

describe('licence summary', () => {
  it('shows a new organization on its 7-day trial with 5 seats, 2 used', async () => {
    const { admin } = await setup();
    const res = await admin.get('/api/licenses/summary');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      planType: 'trial',
      subscriptionStatus: 'trial',
      seats: 5,
      seatsUsed: 2,
      seatsAvailable: 3,
      daysLeft: 7,
      maxPackagesPerMonth: 500,
      monthlyTotal: 0,
      provider: null,
      customerId: null,
      canWrite: true,
      blockedReason: null,
      // The demo provider charges nothing: no "won't be charged until the trial ends" to promise.
      cardTrialEndsAt: null,
    });
    expect((await admin.get('/api/licenses/active')).json()).toEqual([]);
    expect((await admin.get('/api/billing/payments')).json()).toEqual([]);
  });

  it('refuses members (403, audited) and answers another organization 403 not a member', async () => {
    const { member, org } = await setup();
    const res = await member.get('/api/licenses/summary');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'admin_required' });
    expect(await audit(org.id, 'billing.refused')).toHaveLength(1);
    const other = await setup('Other');
    other.admin.organizationId = org.id;
    expect((await other.admin.get('/api/licenses/summary')).statusCode).toBe(403);
  });
});

describe("a member's refused billing calls (issue 41, item 13)", () => {
  it('audits the first refusals of a burst, then answers 429 with Retry-After and writes no more', async () => {
    const { member, org } = await setup('Refused burst');
    const body = { planType: 'professional', userCount: 5 };
    // The probe: 100 PayPal orders by a member, in a burst.
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 100; i += 1) {
      const res = await member.post('/api/paypal/order', body);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) retryAfter ??= res.headers['retry-after'] as string;
    }
    // The first ones are refused as they always were, and each of them is in the audit log.
    expect(statuses.slice(0, BILLING_REFUSALS_AUDITED_PER_WINDOW)).toEqual(
      Array(BILLING_REFUSALS_AUDITED_PER_WINDOW).fill(403),
    );
    expect(statuses.slice(BILLING_REFUSALS_AUDITED_PER_WINDOW).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    const entries = await audit(org.id, 'billing.refused');
    // The refusals, and one entry saying the rest of the window is throttled: not a hundred.
    expect(entries).toHaveLength(BILLING_REFUSALS_AUDITED_PER_WINDOW + 1);
    const after = entries.map((e) => e.after as { call?: string; reason: string; throttledUntil?: string });
    expect(after.filter((a) => a.call === 'POST /api/paypal/order' && !a.throttledUntil)).toHaveLength(
      BILLING_REFUSALS_AUDITED_PER_WINDOW,
    );
    expect(after.filter((a) => a.throttledUntil).map((a) => a.reason)).toEqual([expect.stringMatching(/throttled/)]);
  });

  it("counts per person: another member's first refusal is still refused 403 and audited", async () => {
    const { member, org } = await setup('Refused per person');
    for (let i = 0; i < BILLING_REFUSALS_AUDITED_PER_WINDOW + 2; i += 1) await member.get('/api/licenses/summary');
    expect((await member.get('/api/licenses/summary')).statusCode).toBe(429);
    const other = await joinAs(t, org.id);
    const res = await other.client.get('/api/licenses/summary');
    expect(res.statusCode).toBe(403);
    const mine = (await audit(org.id, 'billing.refused')).filter((e) => e.actorId === other.userId);
    expect(mine).toHaveLength(1);
  });
});

describe('card checkout with the demo provider', () => {
  it('buys Professional for 5 users: plan, seats, package limit, licence, payment and audit', async () => {
    const { admin, org } = await setup();
    const id = await demoCheckout(admin, 'professional', 5);
    const shown = await admin.get(`/api/billing/demo-checkouts/${id}`);
    expect(shown.json()).toMatchObject({ planType: 'professional', quantity: 5, amount: 17500, status: 'open' });

    const done = await admin.post(`/api/billing/demo-checkouts/${id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<Org>()).toMatchObject({
      planType: 'professional',
      subscriptionStatus: 'active',
      maxUsers: 5,
      maxPackagesPerMonth: -1,
      lastPaymentAmount: 17500,
    });
    const [licence] = await licences(org.id);
    expect(licence).toMatchObject({ planType: 'professional', quantity: 5, pricePerLicense: 3500, totalAmount: 17500 });
    expect(licence!.isActive).toBe(true);
    expect(await payments(org.id)).toMatchObject([{ provider: 'demo', status: 'paid', amount: 17500 }]);
    const [entry] = await audit(org.id, 'billing.plan_changed');
    expect(entry).toMatchObject({ before: { planType: 'trial' }, after: { planType: 'professional' } });

    const summary = (await admin.get('/api/licenses/summary')).json<Record<string, unknown>>();
    expect(summary).toMatchObject({ planType: 'professional', seats: 5, monthlyTotal: 17500, provider: 'demo' });
    expect(String(summary.customerId)).toMatch(/^demo_cus_/);
    expect((await admin.get(`/api/billing/demo-checkouts/${id}`)).json()).toMatchObject({ status: 'completed' });

    // Completing twice changes nothing twice.
    expect((await admin.post(`/api/billing/demo-checkouts/${id}/complete`)).statusCode).toBe(200);
    expect(await licences(org.id)).toHaveLength(1);
    expect(await payments(org.id)).toHaveLength(1);
  });

  it('a second purchase replaces the plan: one active licence', async () => {
    const { admin, org } = await setup();
    await admin.post(`/api/billing/demo-checkouts/${await demoCheckout(admin, 'starter', 3)}/complete`);
    expect(await orgRow(org.id)).toMatchObject({ planType: 'starter', maxUsers: 3, maxPackagesPerMonth: 1000 });
    await admin.post(`/api/billing/demo-checkouts/${await demoCheckout(admin, 'enterprise', 12)}/complete`);
    expect(await orgRow(org.id)).toMatchObject({ planType: 'enterprise', maxUsers: 12, maxPackagesPerMonth: -1 });
    const active = (await admin.get('/api/licenses/active')).json<Array<{ planType: string }>>();
    expect(active.map((l) => l.planType)).toEqual(['enterprise']);
  });

  it('refuses seats outside the plan or below the members present, changes nothing and audits it', async () => {
    const { admin, org } = await setup();
    const before = await orgRow(org.id);
    const cases: Array<[string, number, string]> = [
      ['professional', 11, BILLING_MESSAGES.seatsOutOfRange(PLANS.professional)],
      ['enterprise', 5, BILLING_MESSAGES.seatsOutOfRange(PLANS.enterprise)],
      ['starter', 0, 'Number of users must be at least 1'],
    ];
    for (const [planId, quantity, message] of cases) {
      const res = await admin.post('/api/billing/create-checkout-session', { planId, quantity });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain(message);
    }
    await joinAs(t, org.id);
    await joinAs(t, org.id); // 4 members now
    const below = await admin.post('/api/billing/create-checkout-session', { planId: 'starter', quantity: 3 });
    expect(below.statusCode).toBe(400);
    expect(below.json()).toMatchObject({ code: 'invalid_seats', message: BILLING_MESSAGES.seatsBelowMembers(4) });
    const bad = await admin.post('/api/billing/create-checkout-session', { planId: 'platinum', quantity: 3 });
    expect(bad.statusCode).toBe(400);
    expect(await orgRow(org.id)).toEqual(before);
    expect((await audit(org.id, 'billing.refused')).length).toBeGreaterThanOrEqual(3);
  });

  it("keeps another organization's demo checkout out of reach (404) and members out (403)", async () => {
    const a = await setup('A');
    const b = await setup('B');
    const id = await demoCheckout(a.admin, 'professional', 5);
    expect((await b.admin.get(`/api/billing/demo-checkouts/${id}`)).statusCode).toBe(404);
    expect((await b.admin.post(`/api/billing/demo-checkouts/${id}/complete`)).statusCode).toBe(404);
    expect((await a.member.post(`/api/billing/demo-checkouts/${id}/complete`)).statusCode).toBe(403);
    expect(await orgRow(a.org.id)).toMatchObject({ planType: 'trial' });
    expect(await orgRow(b.org.id)).toMatchObject({ planType: 'trial' });
  });

  it('answers the portal: no customer 404 no_subscription, a demo customer 409 demo_environment', async () => {
    const { admin } = await setup();
    const none = await admin.post('/api/billing/create-portal-session', {});
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ message: BILLING_MESSAGES.noSubscription });
    await admin.post(`/api/billing/demo-checkouts/${await demoCheckout(admin, 'professional', 5)}/complete`);
    const demo = await admin.post('/api/billing/create-portal-session', {});
    expect(demo.statusCode).toBe(409);
    expect(demo.json()).toMatchObject({ code: 'demo_environment' });
  });
});

describe('PayPal with the demo provider, and the upgrade call', () => {
  it('prices the order on the server, captures it, and then the upgrade answers the organization', async () => {
    const { admin, org } = await setup();
    expect((await admin.get('/api/paypal/setup')).json()).toEqual({ clientToken: 'demo', clientId: null, demo: true });
    const upgrade = { planType: 'professional', userCount: 5 };
    const early = await admin.post(`/api/organizations/${org.id}/upgrade`, upgrade);
    expect(early.statusCode).toBe(402);
    expect(early.json()).toMatchObject({ code: 'payment_required' });

    const tampered = await admin.post('/api/paypal/order', { ...upgrade, amount: '1.00', currency: 'USD' });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toMatchObject({ code: 'amount_mismatch' });
    const order = await admin.post('/api/paypal/order', {
      ...upgrade,
      amount: '175.00',
      currency: 'USD',
      intent: 'CAPTURE',
    });
    expect(order.statusCode, order.body).toBe(200);
    const { id } = order.json<{ id: string }>();

    const other = await admin.post(`/api/paypal/order/${id}/capture`, { planType: 'enterprise', userCount: 10 });
    expect(other.statusCode).toBe(400);
    expect(await orgRow(org.id)).toMatchObject({ planType: 'trial' });

    const captured = await admin.post(`/api/paypal/order/${id}/capture`, upgrade);
    expect(captured.statusCode, captured.body).toBe(200);
    expect(captured.json()).toMatchObject({
      status: 'COMPLETED',
      organization: { planType: 'professional', maxUsers: 5 },
    });
    expect((await admin.post(`/api/paypal/order/${id}/capture`, upgrade)).statusCode).toBe(200);
    expect(await payments(org.id)).toHaveLength(1);

    const ok = await admin.post(`/api/organizations/${org.id}/upgrade`, upgrade);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ id: org.id, planType: 'professional', maxUsers: 5 });
    const more = await admin.post(`/api/organizations/${org.id}/upgrade`, { planType: 'professional', userCount: 9 });
    expect(more.statusCode).toBe(402);
    expect(await orgRow(org.id)).toMatchObject({ maxUsers: 5 });
  });

  it("refuses another organization's order (404) and answers the upgrade 404 to non-members, 403 to members", async () => {
    const a = await setup('A');
    const b = await setup('B');
    const order = await a.admin.post('/api/paypal/order', { planType: 'starter', userCount: 3 });
    const { id } = order.json<{ id: string }>();
    const stolen = await b.admin.post(`/api/paypal/order/${id}/capture`, { planType: 'starter', userCount: 3 });
    expect(stolen.statusCode).toBe(404);
    expect(await orgRow(b.org.id)).toMatchObject({ planType: 'trial' });
    expect(await orgRow(a.org.id)).toMatchObject({ planType: 'trial' });
    expect(await audit(b.org.id, 'billing.refused')).toHaveLength(1);
    const body = { planType: 'starter', userCount: 3 };
    expect((await b.admin.post(`/api/organizations/${a.org.id}/upgrade`, body)).statusCode).toBe(404);
    expect((await a.member.post(`/api/organizations/${a.org.id}/upgrade`, body)).statusCode).toBe(403);
  });
});

describe('billing writes per organization', () => {
  it('share one budget of 10 a minute: checkouts, demo completions, PayPal orders and captures; the 11th answers 429', async () => {
    const { admin, org } = await setup();
    const checkouts = await Promise.all([1, 2, 3].map(() => demoCheckout(admin, 'professional', 5))); // 3
    for (const id of checkouts.slice(0, 2)) {
      expect((await admin.post(`/api/billing/demo-checkouts/${id}/complete`)).statusCode).toBe(200); // 5
    }
    const orders = [];
    for (let i = 0; i < 3; i++) {
      const res = await admin.post('/api/paypal/order', { planType: 'starter', userCount: 3 }); // 8
      expect(res.statusCode, res.body).toBe(200);
      orders.push(res.json<{ id: string }>().id);
    }
    for (const id of orders.slice(0, 2)) {
      const res = await admin.post(`/api/paypal/order/${id}/capture`, { planType: 'starter', userCount: 3 }); // 10
      expect(res.statusCode, res.body).toBe(200);
    }
    const before = await orgRow(org.id);
    for (const [url, body] of [
      ['/api/billing/create-checkout-session', { planId: 'enterprise', quantity: 10 }],
      [`/api/billing/demo-checkouts/${checkouts[2]}/complete`, undefined],
      ['/api/paypal/order', { planType: 'enterprise', userCount: 10 }],
      [`/api/paypal/order/${orders[2]}/capture`, { planType: 'starter', userCount: 3 }],
    ] as const) {
      const res = await admin.post(url, body);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(429);
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.json()).toMatchObject({ code: 'rate_limited', message: BILLING_MESSAGES.tooManyBillingRequests });
    }
    expect(await orgRow(org.id)).toEqual(before);
    // Reads are not counted.
    expect((await admin.get('/api/licenses/summary')).statusCode).toBe(200);
    expect((await admin.get(`/api/billing/demo-checkouts/${checkouts[2]}`)).statusCode).toBe(200);
  });
});

describe('an ended trial or subscription', () => {
  const endTrial = (id: string) =>
    t.db
      .update(organizations)
      .set({ trialEndDate: new Date(Date.now() - 60_000) })
      .where(eq(organizations.id, id));

  it('keeps reads, refuses new items and integrations with 402 trial_expired, until a plan is bought', async () => {
    const { admin, member, org } = await setup();
    await endTrial(org.id);
    const item = await member.post('/api/mail-items', { type: 'letter' });
    expect(item.statusCode).toBe(402);
    expect(item.json()).toMatchObject({ code: 'trial_expired', message: BILLING_MESSAGES.trialEnded });
    const integration = await admin.post('/api/integrations', { name: 'API', type: 'api' });
    expect(integration.statusCode).toBe(402);
    expect((await member.get('/api/mail-items')).statusCode).toBe(200);
    expect((await admin.get('/api/licenses/summary')).json()).toMatchObject({
      daysLeft: 0,
      canWrite: false,
      blockedReason: 'trial_expired',
    });

    await admin.post(`/api/billing/demo-checkouts/${await demoCheckout(admin, 'professional', 5)}/complete`);
    expect((await member.post('/api/mail-items', { type: 'letter' })).statusCode).toBe(201);
  });

  it('refuses new items with 402 subscription_inactive once a paid subscription is cancelled', async () => {
    const { admin, member, org } = await setup();
    await admin.post(`/api/billing/demo-checkouts/${await demoCheckout(admin, 'starter', 3)}/complete`);
    await t.db.update(organizations).set({ subscriptionStatus: 'cancelled' }).where(eq(organizations.id, org.id));
    const item = await member.post('/api/mail-items', { type: 'letter' });
    expect(item.statusCode).toBe(402);
    expect(item.json()).toMatchObject({ code: 'subscription_inactive' });
  });
});

describe('a one-time payment', () => {
  it('pays for one month: then the plan expires, its licence ends, and new items are refused', async () => {
    const { admin, member, org } = await setup();
    await admin.post(`/api/billing/demo-checkouts/${await demoCheckout(admin, 'professional', 5)}/complete`);
    const row = await orgRow(org.id);
    expect(row.nextBillingDate!.getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(await expireOneTimePlans(t.db)).toBe(0);

    await t.db
      .update(organizations)
      .set({ nextBillingDate: new Date(Date.now() - 1000) })
      .where(eq(organizations.id, org.id));
    expect(await expireOneTimePlans(t.db)).toBeGreaterThanOrEqual(1);
    expect(await orgRow(org.id)).toMatchObject({ subscriptionStatus: 'expired', planType: 'professional' });
    expect((await admin.get('/api/licenses/active')).json()).toEqual([]);
    expect(await audit(org.id, 'billing.plan_changed')).toHaveLength(2);
    expect((await member.post('/api/mail-items', { type: 'letter' })).statusCode).toBe(402);
    expect((await member.get('/api/mail-items')).statusCode).toBe(200);
  });
});
