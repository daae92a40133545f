import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../contract';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { auditLog, billingCheckouts, billingPayments, organizationLicenses, organizations } from '../../db/schema';
import { Client, createSecondInstance, createTestApp, type TestApp } from '../../test/harness';
import { startPaypalServer } from '../../test/paypal-server';
import { startStripeServer } from '../../test/stripe-server';
import { billingRepository } from './billing.repository';
import { DEMO_CHECKOUT_TTL_MS } from './billing.service';

/**
 * Which payment choices a server offers (decision 028): the demo provider exists only with
 * DEMO_PAYMENTS (on by default outside production without keys), never beside real keys; a
 * choice nobody takes is not offered and its calls answer 409 and write nothing; demo checkouts
 * expire and do not outlive demo mode. The apps here share one database, as instances restarted
 * with another configuration would.
 */

const PAYPAL = { clientId: 'paypal-matrix', clientSecret: 'paypal-matrix-secret' };
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
let paypal: Awaited<ReturnType<typeof startPaypalServer>>;
/** Development defaults, no keys: the demo provider takes both choices. */
let t: TestApp;

beforeAll(async () => {
  [stripe, paypal] = await Promise.all([startStripeServer(), startPaypalServer(PAYPAL)]);
  t = await createTestApp();
});
afterAll(async () => Promise.all([stripe.close(), paypal.close()]));

const production = { NODE_ENV: 'production', APP_URL: 'https://desk.example.com' };
const stripeKeys = () => ({
  STRIPE_SECRET_KEY: 'sk_test_matrix',
  STRIPE_WEBHOOK_SECRET: 'whsec_matrix',
  STRIPE_API_URL: stripe.url,
});
const paypalKeys = () => ({
  PAYPAL_CLIENT_ID: PAYPAL.clientId,
  PAYPAL_CLIENT_SECRET: PAYPAL.clientSecret,
  PAYPAL_API_URL: paypal.url,
});

/** An admin with a new organization on its trial (registered through the first app). */
async function setup(name = 'Harbor View') {
  const admin = new Client(t);
  await admin.register();
  const org = await admin.createOrganization(name);
  return { admin, org };
}

/** The same browser session, sent to another instance. */
function on(instance: TestApp, c: Client): Client {
  const other = new Client(instance);
  other.cookie = c.cookie;
  other.organizationId = c.organizationId;
  return other;
}

const orgRow = async (id: string) => (await t.db.select().from(organizations).where(eq(organizations.id, id)))[0]!;
const checkoutsOf = (id: string) =>
  t.db.select().from(billingCheckouts).where(eq(billingCheckouts.organizationId, id)).orderBy(billingCheckouts.id);
/** Everything a billing call could have written for the organization. */
async function billingState(id: string) {
  const org = await orgRow(id);
  return {
    plan: {
      planType: org.planType,
      subscriptionStatus: org.subscriptionStatus,
      maxUsers: org.maxUsers,
      billingProvider: org.billingProvider,
      stripeCustomerId: org.stripeCustomerId,
    },
    checkouts: await checkoutsOf(id),
    licences: await t.db.select().from(organizationLicenses).where(eq(organizationLicenses.organizationId, id)),
    payments: await t.db.select().from(billingPayments).where(eq(billingPayments.organizationId, id)),
    audit: await t.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, id))),
  };
}

/** A demo checkout and a DEMO-… PayPal order as the demo provider opened them, `ageMs` ago. */
async function demoRows(organizationId: string, ageMs = 0) {
  const createdAt = new Date(Date.now() - ageMs);
  const base = { organizationId, planType: 'enterprise' as const, quantity: 1000, amount: 4500 * 1000, createdAt };
  const checkout = await billingRepository.insertCheckout(t.db, { ...base, provider: 'demo' });
  const orderId = `DEMO-${crypto.randomUUID()}`;
  await billingRepository.insertCheckout(t.db, { ...base, provider: 'demo', providerRef: orderId });
  return { checkoutId: checkout.id, orderId };
}

const unavailable = (message: string) => ({ message, code: 'payment_method_unavailable' });
const enterprise1000 = { planType: 'enterprise', userCount: 1000 };

describe('no free plans in production (issue 24, finding 1)', () => {
  it("production with Stripe keys only: the probe's PayPal order for Enterprise × 1,000 answers 409 and writes nothing", async () => {
    const stripeOnly = await createSecondInstance(t, { ...production, ...stripeKeys() });
    const { admin, org } = await setup();
    const c = on(stripeOnly, admin);

    const plans = (await c.get('/api/plans')).json<{ demoMode: boolean; providers: unknown }>();
    expect(plans.demoMode).toBe(false);
    expect(plans.providers).toEqual({ card: 'stripe', paypal: null });

    const before = await billingState(org.id);
    const order = await c.post('/api/paypal/order', enterprise1000);
    expect(order.statusCode, order.body).toBe(409);
    expect(order.json()).toEqual(unavailable(BILLING_MESSAGES.paypalUnavailable));
    // What the probe did next: capture the DEMO-… order it was given.
    const capture = await c.post(`/api/paypal/order/DEMO-${crypto.randomUUID()}/capture`, enterprise1000);
    expect(capture.statusCode).toBe(409);
    const setup409 = await c.get('/api/paypal/setup');
    expect(setup409.statusCode).toBe(409);
    expect(await billingState(org.id)).toEqual(before);
    expect(before.plan).toMatchObject({ planType: 'trial', subscriptionStatus: 'trial', maxUsers: 5 });
  });

  it('refuses DEMO_PAYMENTS=true beside any provider key at start, naming it', () => {
    const env = { ...production, DEMO_PAYMENTS: 'true' };
    expect(() => loadConfig({ ...env, STRIPE_SECRET_KEY: 'sk_live_x' }, '/srv/app')).toThrow(
      /DEMO_PAYMENTS: true cannot be combined with STRIPE_SECRET_KEY/,
    );
    expect(() => loadConfig({ ...env, PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' }, '/srv/app')).toThrow(
      /DEMO_PAYMENTS: true cannot be combined with PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET/,
    );
    // Half of PayPal's pair is refused on its own (config.test.ts).
    expect(() => loadConfig({ DEMO_PAYMENTS: 'true', PAYPAL_CLIENT_ID: 'id' }, '/srv/app')).toThrow(
      /PAYPAL_CLIENT_SECRET: required/,
    );
  });

  it('logs one loud error at start when production runs with DEMO_PAYMENTS=true, and none otherwise', async () => {
    const startLines = async (env: Record<string, string>) => {
      const lines: Array<{ level: number; msg: string }> = [];
      const stream = new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      });
      const config = loadConfig({ LOG_LEVEL: 'info', CACHE_TTL_MS: '0', SECRETS_KEY: t.config.secretsKey, ...env });
      const app = await buildApp({ config, db: t.db, logStream: stream });
      await app.close();
      return lines.filter((l) => /DEMO_PAYMENTS/.test(l.msg));
    };
    const warned = await startLines({ ...production, DEMO_PAYMENTS: 'true' });
    expect(warned).toHaveLength(1);
    expect(warned[0]!.level).toBe(50); // error
    expect(warned[0]!.msg).toMatch(/WITHOUT CHARGING ANYTHING/);
    expect(await startLines({ ...production })).toEqual([]);
    expect(await startLines({})).toEqual([]); // development without keys: demo on, quietly
  });
});

describe('the production configuration matrix', () => {
  type Offer = 'stripe' | 'paypal' | 'demo' | null;
  const matrix: Array<{ name: string; env: () => Record<string, string>; card: Offer; paypal: Offer }> = [
    { name: 'no keys', env: () => ({}), card: null, paypal: null },
    { name: 'Stripe only', env: stripeKeys, card: 'stripe', paypal: null },
    { name: 'PayPal only', env: paypalKeys, card: null, paypal: 'paypal' },
    { name: 'Stripe and PayPal', env: () => ({ ...stripeKeys(), ...paypalKeys() }), card: 'stripe', paypal: 'paypal' },
    { name: 'demo explicitly on', env: () => ({ DEMO_PAYMENTS: 'true' }), card: 'demo', paypal: 'demo' },
  ];

  for (const row of matrix) {
    it(`${row.name}: offers card ${row.card ?? 'no'}, PayPal ${row.paypal ?? 'no'}; every other call answers 409 and writes nothing`, async () => {
      const instance = await createSecondInstance(t, { ...production, ...row.env() });
      const { admin, org } = await setup(`Matrix ${row.name}`);
      const c = on(instance, admin);
      const demo = row.card === 'demo';

      const plans = (await new Client(instance).get('/api/plans')).json<{ demoMode: boolean; providers: unknown }>();
      expect(plans).toMatchObject({ demoMode: demo, providers: { card: row.card, paypal: row.paypal } });

      /** A call that must be refused: 409 with its message, and nothing of the organization's written. */
      const refused = async (send: () => ReturnType<Client['get']>, message: string) => {
        const before = await billingState(org.id);
        const reply = await send();
        expect(reply.statusCode, reply.body).toBe(409);
        expect(reply.json()).toEqual(unavailable(message));
        expect(await billingState(org.id)).toEqual(before);
      };

      // Left over from a time the demo provider was on (as the probe's orders were).
      const leftover = await demoRows(org.id);

      // Card: a checkout session, and the portal of a real Stripe customer.
      const session = () => c.post('/api/billing/create-checkout-session', { planId: 'professional', quantity: 5 });
      if (row.card === null) await refused(session, BILLING_MESSAGES.cardUnavailable);
      else {
        const reply = await session();
        expect(reply.statusCode, reply.body).toBe(200);
        expect(reply.json()).toMatchObject({ provider: row.card });
      }
      if (!demo) {
        const customer = `cus_matrix_${org.id.slice(0, 8)}`;
        stripe.addCustomer(customer);
        await t.db.update(organizations).set({ stripeCustomerId: customer }).where(eq(organizations.id, org.id));
        const portal = () => c.post('/api/billing/create-portal-session', {});
        if (row.card === null) await refused(portal, BILLING_MESSAGES.cardUnavailable);
        else expect((await portal()).statusCode).toBe(200);
        await t.db.update(organizations).set({ stripeCustomerId: null }).where(eq(organizations.id, org.id));
      }

      // PayPal: the set-up, an order, the capture of the left-over DEMO-… order.
      const paypalSetup = () => c.get('/api/paypal/setup');
      const order = () => c.post('/api/paypal/order', enterprise1000);
      if (row.paypal === null) {
        await refused(paypalSetup, BILLING_MESSAGES.paypalUnavailable);
        await refused(order, BILLING_MESSAGES.paypalUnavailable);
        await refused(
          () => c.post(`/api/paypal/order/${leftover.orderId}/capture`, enterprise1000),
          BILLING_MESSAGES.paypalUnavailable,
        );
      } else {
        expect((await paypalSetup()).json()).toMatchObject({ demo });
        const created = await order();
        expect(created.statusCode, created.body).toBe(200);
        expect(created.json<{ id: string }>().id.startsWith('DEMO-')).toBe(demo);
        if (!demo) {
          await refused(
            () => c.post(`/api/paypal/order/${leftover.orderId}/capture`, enterprise1000),
            BILLING_MESSAGES.demoUnavailable,
          );
        }
      }

      // The demo provider's own calls.
      if (demo) {
        expect((await c.get(`/api/billing/demo-checkouts/${leftover.checkoutId}`)).statusCode).toBe(200);
        const done = await c.post(`/api/billing/demo-checkouts/${leftover.checkoutId}/complete`);
        expect(done.statusCode, done.body).toBe(200);
        expect(await orgRow(org.id)).toMatchObject({ planType: 'enterprise', maxUsers: 1000, billingProvider: 'demo' });
      } else {
        await refused(
          () => c.get(`/api/billing/demo-checkouts/${leftover.checkoutId}`),
          BILLING_MESSAGES.demoUnavailable,
        );
        await refused(
          () => c.post(`/api/billing/demo-checkouts/${leftover.checkoutId}/complete`),
          BILLING_MESSAGES.demoUnavailable,
        );
        expect(await orgRow(org.id)).toMatchObject({ planType: 'trial', subscriptionStatus: 'trial', maxUsers: 5 });
        expect((await checkoutsOf(org.id)).filter((r) => r.provider === 'demo').map((r) => r.status)).toEqual([
          'open',
          'open',
        ]);
      }
    });
  }
});

describe('demo checkouts do not outlive demo mode (issue 24, finding 2)', () => {
  it('a demo checkout and order opened without keys are refused after a restart with keys, or in production', async () => {
    const { admin, org } = await setup();
    // Opened while the demo provider was on.
    const checkout = await admin.post('/api/billing/create-checkout-session', { planId: 'enterprise', quantity: 500 });
    expect(checkout.json()).toMatchObject({ provider: 'demo' });
    const checkoutId = checkout.json<{ url: string }>().url.split('/').at(-1)!;
    const order = await admin.post('/api/paypal/order', { planType: 'enterprise', userCount: 500 });
    const orderId = order.json<{ id: string }>().id;
    expect(orderId).toMatch(/^DEMO-/);
    const before = await billingState(org.id);

    const restarts = [
      { env: stripeKeys(), capture: BILLING_MESSAGES.paypalUnavailable },
      { env: paypalKeys(), capture: BILLING_MESSAGES.demoUnavailable },
      { env: { ...stripeKeys(), ...paypalKeys() }, capture: BILLING_MESSAGES.demoUnavailable },
      { env: production, capture: BILLING_MESSAGES.paypalUnavailable },
    ];
    for (const restart of restarts) {
      const c = on(await createSecondInstance(t, restart.env), admin);
      const completed = await c.post(`/api/billing/demo-checkouts/${checkoutId}/complete`);
      expect(completed.statusCode, completed.body).toBe(409);
      expect(completed.json()).toEqual(unavailable(BILLING_MESSAGES.demoUnavailable));
      const captured = await c.post(`/api/paypal/order/${orderId}/capture`, { planType: 'enterprise', userCount: 500 });
      expect(captured.statusCode, captured.body).toBe(409);
      expect(captured.json()).toEqual(unavailable(restart.capture));
    }
    expect(await billingState(org.id)).toEqual(before);
    expect(before.plan).toMatchObject({ planType: 'trial', maxUsers: 5 });
  });

  it('expires an hour after it was opened (DEMO_CHECKOUT_TTL_MS), even with the demo provider on', async () => {
    const { admin, org } = await setup();
    const old = await demoRows(org.id, DEMO_CHECKOUT_TTL_MS + 60_000);
    const before = await billingState(org.id);
    const shown = await admin.get(`/api/billing/demo-checkouts/${old.checkoutId}`);
    expect(shown.json()).toMatchObject({ status: 'expired' });
    const completed = await admin.post(`/api/billing/demo-checkouts/${old.checkoutId}/complete`);
    expect(completed.statusCode).toBe(409);
    expect(completed.json()).toEqual({ message: BILLING_MESSAGES.demoCheckoutExpired, code: 'checkout_expired' });
    const captured = await admin.post(`/api/paypal/order/${old.orderId}/capture`, enterprise1000);
    expect(captured.statusCode).toBe(409);
    expect(captured.json()).toMatchObject({ code: 'checkout_expired' });
    expect(await billingState(org.id)).toEqual(before);

    // Within the hour it still completes.
    const fresh = await demoRows(org.id, DEMO_CHECKOUT_TTL_MS - 60_000);
    expect((await admin.get(`/api/billing/demo-checkouts/${fresh.checkoutId}`)).json()).toMatchObject({
      status: 'open',
    });
    expect((await admin.post(`/api/billing/demo-checkouts/${fresh.checkoutId}/complete`)).statusCode).toBe(200);
    expect(await orgRow(org.id)).toMatchObject({ planType: 'enterprise', maxUsers: 1000 });
  });
});
