import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../contract';
import { auditLog, billingPayments, organizations } from '../../db/schema';
import { Client, createTestApp, type TestApp } from '../../test/harness';
import { startPaypalServer } from '../../test/paypal-server';

/**
 * PayPal through its OAuth and Orders v2 API as a local server speaks it (the official SDK pointed
 * at it): the plan is applied only after the server itself captured the order and saw it
 * COMPLETED for the amount it priced.
 */

const credentials = { clientId: 'paypal-client', clientSecret: 'paypal-secret' };
let paypal: Awaited<ReturnType<typeof startPaypalServer>>;
let t: TestApp;

beforeAll(async () => {
  paypal = await startPaypalServer(credentials);
  t = await createTestApp({
    PAYPAL_CLIENT_ID: credentials.clientId,
    PAYPAL_CLIENT_SECRET: credentials.clientSecret,
    PAYPAL_API_URL: paypal.url,
  });
});
afterAll(async () => paypal.close());

async function setup(name = 'Harbor View') {
  const admin = new Client(t);
  await admin.register();
  const org = await admin.createOrganization(name);
  return { admin, org };
}

const orgRow = async (id: string) => (await t.db.select().from(organizations).where(eq(organizations.id, id)))[0]!;
const refusals = (id: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.organizationId, id), eq(auditLog.action, 'billing.refused')));
const plan = { planType: 'professional', userCount: 5 } as const;

async function order(c: Client) {
  const res = await c.post('/api/paypal/order', { ...plan, amount: '175.00', currency: 'USD', intent: 'CAPTURE' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: string; status: string }>();
}

describe('PayPal', () => {
  it('answers the setup with a client token from PayPal and the public client id', async () => {
    const { admin } = await setup();
    const res = await admin.get('/api/paypal/setup');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ clientId: credentials.clientId, demo: false });
    expect(res.json<{ clientToken: string }>().clientToken.length).toBeGreaterThan(0);
    expect(paypal.requests.some((r) => r.path === '/v1/oauth2/token')).toBe(true);
  });

  it('promises no trial before the charge: PayPal charges at once and no card is offered', async () => {
    const { admin } = await setup();
    const summary = await admin.get('/api/licenses/summary');
    expect(summary.json()).toMatchObject({ subscriptionStatus: 'trial', daysLeft: 7, cardTrialEndsAt: null });
    expect((await admin.get('/api/plans')).json()).toMatchObject({ providers: { card: null, paypal: 'paypal' } });
  });

  it('creates the order at the price of the plan table, for this organization', async () => {
    const { admin, org } = await setup();
    const { id, status } = await order(admin);
    expect(status).toBe('CREATED');
    const unit = (paypal.orders.get(id) as { purchase_units: Array<Record<string, unknown>> }).purchase_units[0]!;
    expect(unit.amount).toMatchObject({ currency_code: 'USD', value: '175.00' });
    expect(unit.custom_id).toBe(org.id);
  });

  it('refuses a capture PayPal did not complete (402, audited), then applies the plan once it did', async () => {
    const { admin, org } = await setup();
    const { id } = await order(admin);
    const early = await admin.post(`/api/paypal/order/${id}/capture`, plan);
    expect(early.statusCode).toBe(402);
    expect(early.json()).toMatchObject({
      code: 'payment_not_completed',
      message: BILLING_MESSAGES.paymentNotCompleted,
    });
    expect(await orgRow(org.id)).toMatchObject({ planType: 'trial' });
    expect(await refusals(org.id)).toHaveLength(1);

    paypal.approve(id);
    const res = await admin.post(`/api/paypal/order/${id}/capture`, plan);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'COMPLETED', organization: { planType: 'professional', maxUsers: 5 } });
    const [payment] = await t.db.select().from(billingPayments).where(eq(billingPayments.organizationId, org.id));
    expect(payment).toMatchObject({ provider: 'paypal', status: 'paid', amount: 17500, currency: 'USD' });
    const upgrade = await admin.post(`/api/organizations/${org.id}/upgrade`, plan);
    expect(upgrade.statusCode, upgrade.body).toBe(200);
  });

  it('refuses a capture whose amount or status PayPal reports differently from the order', async () => {
    for (const outcome of [{ amount: '1.00' }, { status: 'PENDING' }, { currency: 'EUR' }]) {
      const { admin, org } = await setup();
      const { id } = await order(admin);
      paypal.approve(id);
      paypal.setCaptureOutcome(id, outcome);
      const res = await admin.post(`/api/paypal/order/${id}/capture`, plan);
      expect(res.statusCode, JSON.stringify(outcome)).toBe(402);
      expect(await orgRow(org.id)).toMatchObject({ planType: 'trial', maxUsers: 5 });
      expect((await admin.post(`/api/organizations/${org.id}/upgrade`, plan)).statusCode).toBe(402);
    }
  });

  it("refuses another organization's order (404) and a tampered plan (400)", async () => {
    const a = await setup('A');
    const b = await setup('B');
    const { id } = await order(a.admin);
    paypal.approve(id);
    expect((await b.admin.post(`/api/paypal/order/${id}/capture`, plan)).statusCode).toBe(404);
    const bigger = await a.admin.post(`/api/paypal/order/${id}/capture`, { planType: 'professional', userCount: 10 });
    expect(bigger.statusCode).toBe(400);
    expect(await orgRow(a.org.id)).toMatchObject({ planType: 'trial' });
    expect(await orgRow(b.org.id)).toMatchObject({ planType: 'trial' });
    expect(paypal.requests.filter((r) => r.path === `/v2/checkout/orders/${id}/capture`)).toHaveLength(0);
  });

  it('answers 502 when PayPal is down, and the order can still be captured later', async () => {
    const { admin, org } = await setup();
    const { id } = await order(admin);
    paypal.approve(id);
    paypal.setDown(true);
    try {
      const res = await admin.post(`/api/paypal/order/${id}/capture`, plan);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ message: BILLING_MESSAGES.providerDown });
    } finally {
      paypal.setDown(false);
    }
    expect(await orgRow(org.id)).toMatchObject({ planType: 'trial' });
    expect((await admin.post(`/api/paypal/order/${id}/capture`, plan)).statusCode).toBe(200);
  });
});
