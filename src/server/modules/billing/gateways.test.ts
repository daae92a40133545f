import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaypalServer } from '../../test/paypal-server';
import { signStripePayload, startStripeServer, stripeEvent } from '../../test/stripe-server';
import {
  ProviderRefusedError,
  ProviderUnavailableError,
  WebhookSignatureError,
  type PaypalOrderInput,
  type StripeCheckoutInput,
} from './gateways';
import { centsToDecimal, createPaypalGateway, decimalToCents } from './paypal.gateway';
import { createStripeGateway, hostOf } from './stripe.gateway';

/**
 * The payment gateways (the official SDKs) against local servers that speak Stripe's and PayPal's
 * APIs: what each provider receives, what comes back, and how failures surface.
 */

const now = () => Math.floor(Date.now() / 1000);

/** Resolves with how long `promise` took to settle (ms) and the error it was rejected with. */
async function failure(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  try {
    await promise;
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
  throw new Error('expected a failure');
}

/** A server that accepts connections and never answers. */
async function startSilentServer() {
  const server = http.createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL nothing listens on. */
async function closedUrl() {
  const silent = await startSilentServer();
  await silent.close();
  return silent.url;
}

describe('Stripe gateway', () => {
  const secretKey = 'sk_test_gateway';
  const webhookSecret = 'whsec_gateway';
  let server: Awaited<ReturnType<typeof startStripeServer>>;
  let gateway: ReturnType<typeof createStripeGateway>;

  beforeAll(async () => {
    server = await startStripeServer({ secretKey });
    gateway = createStripeGateway({ secretKey, webhookSecret, apiUrl: server.url });
  });
  afterAll(async () => server.close());

  const checkout = (fields: Partial<StripeCheckoutInput> = {}): StripeCheckoutInput => ({
    organizationId: 'org_harbor',
    checkoutId: 'chk_1',
    planType: 'professional',
    planName: 'Professional',
    quantity: 7,
    unitAmount: 3500,
    customerId: null,
    customerEmail: 'admin@harbor.test',
    trialEnd: null,
    successUrl: 'https://desk.example.com/settings-billing?checkout=success',
    cancelUrl: 'https://desk.example.com/settings-billing?checkout=cancelled',
    ...fields,
  });
  const lastRequest = (path: string) => server.requests.filter((r) => r.path === path).at(-1)!;

  it('reads host, port and protocol from the API URL', () => {
    expect(hostOf('https://api.stripe.com')).toEqual({ host: 'api.stripe.com', port: 443, protocol: 'https' });
    expect(hostOf('http://127.0.0.1:4010/')).toEqual({ host: '127.0.0.1', port: 4010, protocol: 'http' });
  });

  it('creates a subscription Checkout Session: seats, monthly price, organization, metadata, trial, email', async () => {
    const trialEnd = now() + 5 * 86400;
    const session = await gateway.createCheckoutSession(checkout({ trialEnd }));
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${server.url}/pay/${session.id}`);

    const request = lastRequest('/v1/checkout/sessions');
    expect(request.headers.authorization).toBe(`Bearer ${secretKey}`);
    const metadata = { organizationId: 'org_harbor', checkoutId: 'chk_1', planType: 'professional', quantity: '7' };
    expect(request.body).toEqual({
      mode: 'subscription',
      line_items: [
        {
          price_data: {
            currency: 'usd',
            unit_amount: '3500',
            recurring: { interval: 'month' },
            product_data: { name: 'Pigeonhole Professional' },
          },
          quantity: '7',
        },
      ],
      client_reference_id: 'org_harbor',
      metadata,
      subscription_data: { metadata, trial_end: String(trialEnd) },
      customer_email: 'admin@harbor.test',
      success_url: 'https://desk.example.com/settings-billing?checkout=success',
      cancel_url: 'https://desk.example.com/settings-billing?checkout=cancelled',
    });
  });

  it("sends no trial when there is none, and the organization's customer instead of the email", async () => {
    await gateway.createCheckoutSession(checkout({ customerId: 'cus_harbor', quantity: 2 }));
    const body = lastRequest('/v1/checkout/sessions').body;
    expect(body.subscription_data).toEqual({
      metadata: { organizationId: 'org_harbor', checkoutId: 'chk_1', planType: 'professional', quantity: '2' },
    });
    expect(body.customer).toBe('cus_harbor');
    expect(body).not.toHaveProperty('customer_email');
  });

  it("opens the customer's billing portal; an unknown customer is refused with Stripe's code", async () => {
    server.addCustomer('cus_portal');
    const portal = await gateway.createPortalSession('cus_portal', 'https://desk.example.com/settings-billing');
    expect(portal.url).toBe(`${server.url}/portal/cus_portal`);
    expect(lastRequest('/v1/billing_portal/sessions').body).toEqual({
      customer: 'cus_portal',
      return_url: 'https://desk.example.com/settings-billing',
    });

    const { error } = await failure(gateway.createPortalSession('cus_nobody', 'https://desk.example.com'));
    expect(error).toBeInstanceOf(ProviderRefusedError);
    expect(error).toMatchObject({ provider: 'stripe', providerCode: 'resource_missing' });
  });

  it('reports a wrong secret key as refused, not as Stripe being down', async () => {
    const wrongKey = createStripeGateway({ secretKey: 'sk_test_wrong', webhookSecret, apiUrl: server.url });
    const { error } = await failure(wrongKey.createCheckoutSession(checkout()));
    expect(error).toBeInstanceOf(ProviderRefusedError);
    expect((error as Error).message).toMatch(/API Key/);
  });

  it('reports Stripe answering 503 as unavailable after one retry, within seconds', async () => {
    const before = server.requests.length;
    server.setDown(true);
    try {
      const { error, ms } = await failure(gateway.createCheckoutSession(checkout()));
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(ms).toBeLessThan(5000);
    } finally {
      server.setDown(false);
    }
    expect(server.requests.length - before).toBe(2);
  });

  it('reports an unreachable or silent Stripe as unavailable', async () => {
    const unreachable = createStripeGateway({ secretKey, webhookSecret, apiUrl: await closedUrl() });
    const down = await failure(unreachable.createPortalSession('cus_portal', 'https://desk.example.com'));
    expect(down.error).toBeInstanceOf(ProviderUnavailableError);
    expect(down.ms).toBeLessThan(5000);

    const silent = await startSilentServer();
    try {
      const slow = createStripeGateway({ secretKey, webhookSecret, apiUrl: silent.url }, { timeoutMs: 200 });
      const timedOut = await failure(slow.createPortalSession('cus_portal', 'https://desk.example.com'));
      expect(timedOut.error).toBeInstanceOf(ProviderUnavailableError);
      expect(timedOut.ms).toBeLessThan(5000);
    } finally {
      await silent.close();
    }
  });

  describe('constructEvent', () => {
    const payload = JSON.stringify(stripeEvent('invoice.paid', { id: 'in_1', object: 'invoice', amount_paid: 17500 }));

    it('accepts an event signed with the webhook secret', () => {
      const event = gateway.constructEvent(Buffer.from(payload), signStripePayload(payload, webhookSecret));
      expect(event).toMatchObject({ type: 'invoice.paid', data: { object: { id: 'in_1', amount_paid: 17500 } } });
    });

    it('refuses a wrong secret, a missing header, a tampered body and an old signature', () => {
      const body = Buffer.from(payload);
      const tooOld = now() - 10 * 60;
      expect(() => gateway.constructEvent(body, signStripePayload(payload, 'whsec_other'))).toThrow(
        WebhookSignatureError,
      );
      expect(() => gateway.constructEvent(body, undefined)).toThrow(WebhookSignatureError);
      expect(() => gateway.constructEvent(body, '')).toThrow(WebhookSignatureError);
      expect(() =>
        gateway.constructEvent(Buffer.from(payload.replace('17500', '1')), signStripePayload(payload, webhookSecret)),
      ).toThrow(WebhookSignatureError);
      expect(() => gateway.constructEvent(body, signStripePayload(payload, webhookSecret, tooOld))).toThrow(
        WebhookSignatureError,
      );
    });

    it('refuses every event when no webhook secret is configured', () => {
      const unsigned = createStripeGateway({ secretKey, webhookSecret: undefined, apiUrl: server.url });
      expect(() => unsigned.constructEvent(Buffer.from(payload), signStripePayload(payload, webhookSecret))).toThrow(
        WebhookSignatureError,
      );
    });
  });
});

describe('PayPal amounts', () => {
  it('turns cents into PayPal decimal strings and back, exactly', () => {
    expect([0, 5, 29, 100, 17550, 123456789].map(centsToDecimal)).toEqual([
      '0.00',
      '0.05',
      '0.29',
      '1.00',
      '175.50',
      '1234567.89',
    ]);
    // 0.29 * 100 is 28.999999999999996 in floating point.
    expect(['0.29', '175.5', '175', '1.10', '1234567.89'].map(decimalToCents)).toEqual([
      29, 17550, 17500, 110, 123456789,
    ]);
    for (let cents = 0; cents <= 20_000; cents++) expect(decimalToCents(centsToDecimal(cents))).toBe(cents);
  });

  it('refuses what is not an amount in cents', () => {
    expect(['1.005', '-1.00', '1e3', '', 'abc'].map(decimalToCents)).toEqual([null, null, null, null, null]);
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
    expect(() => centsToDecimal(-100)).toThrow(RangeError);
  });
});

describe('PayPal gateway', () => {
  const credentials = { clientId: 'paypal-gateway-client', clientSecret: 'paypal-gateway-secret' };
  let server: Awaited<ReturnType<typeof startPaypalServer>>;
  let gateway: ReturnType<typeof createPaypalGateway>;

  beforeAll(async () => {
    server = await startPaypalServer(credentials);
    gateway = createPaypalGateway({ ...credentials, apiUrl: server.url });
  });
  afterAll(async () => server.close());

  const order = (fields: Partial<PaypalOrderInput> = {}): PaypalOrderInput => ({
    amount: 17550,
    currency: 'USD',
    description: 'Pigeonhole Professional, 5 users',
    referenceId: 'chk_paypal',
    customId: 'org_harbor',
    ...fields,
  });
  const requestsTo = (path: string) => server.requests.filter((r) => r.path === path);

  it('takes its OAuth token from the configured URL (not paypal.com) and orders the exact amount', async () => {
    const created = await gateway.createOrder(order());
    expect(created).toEqual({ id: expect.stringMatching(/^[A-Z0-9]{17}$/), status: 'CREATED' });

    // The SDK reached the local server for its token: with these made-up credentials, a request
    // to paypal.com would have failed the order above.
    const [token] = requestsTo('/v1/oauth2/token');
    const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64');
    expect(token).toMatchObject({
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
      body: { grant_type: 'client_credentials' },
    });

    const [create] = requestsTo('/v2/checkout/orders');
    expect(create!.headers.authorization).toMatch(/^Bearer A21AA/);
    expect(create!.body).toEqual({
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: 'chk_paypal',
          custom_id: 'org_harbor',
          description: 'Pigeonhole Professional, 5 users',
          amount: { currency_code: 'USD', value: '175.50' },
        },
      ],
    });
  });

  it('answers a client token from generate-token, reusing the OAuth token', async () => {
    await gateway.createOrder(order());
    const tokensBefore = requestsTo('/v1/oauth2/token').length;
    const clientToken = await gateway.clientToken();
    expect(clientToken.length).toBeGreaterThan(10);
    expect(requestsTo('/v1/identity/generate-token').at(-1)!.headers.authorization).toMatch(/^Bearer A21AA/);
    expect(requestsTo('/v1/oauth2/token')).toHaveLength(tokensBefore);
  });

  it('refuses to capture an order the buyer has not approved, with PayPal’s issue code', async () => {
    const { id } = await gateway.createOrder(order());
    const { error } = await failure(gateway.captureOrder(id));
    expect(error).toBeInstanceOf(ProviderRefusedError);
    expect(error).toMatchObject({ provider: 'paypal', providerCode: 'ORDER_NOT_APPROVED' });
    expect(server.orders.get(id)!.status).toBe('CREATED');
  });

  it('captures an approved order: COMPLETED, the amount in cents, whose order it was; only once', async () => {
    const { id } = await gateway.createOrder(order());
    server.approve(id);
    const capture = await gateway.captureOrder(id);
    expect(capture).toEqual({
      orderId: id,
      status: 'COMPLETED',
      captureId: expect.stringMatching(/^[A-Z0-9]{17}$/),
      captureStatus: 'COMPLETED',
      amount: 17550,
      currency: 'USD',
      customId: 'org_harbor',
      referenceId: 'chk_paypal',
    });

    const again = await failure(gateway.captureOrder(id));
    expect(again.error).toMatchObject({ providerCode: 'ORDER_ALREADY_CAPTURED' });
    const unknown = await failure(gateway.captureOrder('0NOSUCHORDER00000'));
    expect(unknown.error).toBeInstanceOf(ProviderRefusedError);
    expect(unknown.error).toMatchObject({ providerCode: 'INVALID_RESOURCE_ID' });
  });

  it('reports a capture that did not complete, or for another amount, as PayPal reported it', async () => {
    const { id } = await gateway.createOrder(order());
    server.approve(id);
    server.setCaptureOutcome(id, { status: 'PENDING', amount: '1.00', currency: 'EUR' });
    expect(await gateway.captureOrder(id)).toMatchObject({
      captureStatus: 'PENDING',
      amount: 100,
      currency: 'EUR',
    });
  });

  it('reports a wrong client secret as refused credentials', async () => {
    const wrong = createPaypalGateway({ ...credentials, clientSecret: 'not-the-secret', apiUrl: server.url });
    const { error } = await failure(wrong.createOrder(order()));
    expect(error).toBeInstanceOf(ProviderRefusedError);
    expect(error).toMatchObject({ provider: 'paypal', providerCode: 'invalid_client' });
    expect((error as Error).message).toMatch(/PAYPAL_CLIENT_SECRET/);
  });

  it('reports PayPal down as unavailable within seconds, and works again once it is back', async () => {
    // A fresh gateway, so its very first token request is the one that fails.
    const fresh = createPaypalGateway({ ...credentials, apiUrl: server.url });
    server.setDown(true);
    try {
      const { error, ms } = await failure(fresh.createOrder(order()));
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(ms).toBeLessThan(5000);
    } finally {
      server.setDown(false);
    }
    expect(await fresh.createOrder(order())).toMatchObject({ status: 'CREATED' });
  });

  it('reports an unreachable or silent PayPal as unavailable', async () => {
    const unreachable = createPaypalGateway({ ...credentials, apiUrl: await closedUrl() });
    const down = await failure(unreachable.clientToken());
    expect(down.error).toBeInstanceOf(ProviderUnavailableError);
    expect(down.ms).toBeLessThan(5000);

    const silent = await startSilentServer();
    try {
      const slow = createPaypalGateway({ ...credentials, apiUrl: silent.url }, { timeoutMs: 200 });
      const timedOut = await failure(slow.createOrder(order()));
      expect(timedOut.error).toBeInstanceOf(ProviderUnavailableError);
      expect(timedOut.ms).toBeLessThan(5000);
    } finally {
      await silent.close();
    }
  });
});
