import Stripe from 'stripe';
import type { Config } from '../../config';
import {
  ProviderRefusedError,
  ProviderUnavailableError,
  WebhookSignatureError,
  type StripeCheckoutInput,
  type StripeGateway,
} from './gateways';

/**
 * Stripe through its official SDK, pointed at `apiUrl` (Stripe itself, or a local server that speaks
 * its API in tests). Failures come out as the provider-neutral errors of ./gateways.
 */

export type StripeGatewayConfig = NonNullable<Config['stripe']>;
export type StripeGatewayOptions = {
  /** Per request; a request that takes longer counts as Stripe being unavailable. */
  timeoutMs?: number;
};

/** Long enough for a slow Stripe, short enough that a person waiting on checkout gets an answer. */
const DEFAULT_TIMEOUT_MS = 10_000;

export function createStripeGateway(config: StripeGatewayConfig, options: StripeGatewayOptions = {}): StripeGateway {
  const stripe = new Stripe(config.secretKey, {
    ...hostOf(config.apiUrl),
    // One retry (the SDK adds an idempotency key to POSTs, so a retried create is not doubled);
    // more would keep a person waiting on a Stripe that is down.
    maxNetworkRetries: 1,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    appInfo: { name: 'Pigeonhole' },
  });

  return {
    async createCheckoutSession(input) {
      const session = await stripe.checkout.sessions.create(checkoutParams(input)).catch(providerError);
      if (!session.url) {
        throw new ProviderRefusedError('stripe', 'missing_url', 'Stripe created a Checkout Session without a URL');
      }
      return { id: session.id, url: session.url };
    },

    async createPortalSession(customerId, returnUrl) {
      const session = await stripe.billingPortal.sessions
        .create({ customer: customerId, return_url: returnUrl })
        .catch(providerError);
      return { url: session.url };
    },

    constructEvent(rawBody, signature) {
      // Without a secret nothing can be verified: refuse rather than trust an unsigned event.
      if (!config.webhookSecret) throw new WebhookSignatureError('STRIPE_WEBHOOK_SECRET is not set');
      if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing');
      try {
        return stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
      } catch (err) {
        // Bad or old signature, or a signed body that is not JSON: either way not an event we act on.
        throw new WebhookSignatureError(err instanceof Error ? err.message : 'Invalid Stripe-Signature', {
          cause: err,
        });
      }
    },
  };
}

/**
 * The SDK takes host, port and protocol rather than a base URL. Its paths always start at /v1, so
 * a path in `apiUrl` is not supported (Stripe-compatible hosts serve at the root anyway).
 */
export function hostOf(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    // URL keeps an IPv6 address in brackets; Node's http wants it bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/** One subscription line of `quantity` seats; the ids travel in metadata so webhooks find our rows. */
function checkoutParams(input: StripeCheckoutInput): Stripe.Checkout.SessionCreateParams {
  const metadata = {
    organizationId: input.organizationId,
    checkoutId: input.checkoutId,
    planType: input.planType,
    quantity: String(input.quantity),
  };
  return {
    mode: 'subscription',
    line_items: [
      {
        price_data: {
          currency: 'usd',
          unit_amount: input.unitAmount,
          recurring: { interval: 'month' },
          product_data: { name: `Pigeonhole ${input.planName}` },
        },
        quantity: input.quantity,
      },
    ],
    client_reference_id: input.organizationId,
    metadata,
    subscription_data: { metadata, ...(input.trialEnd !== null ? { trial_end: input.trialEnd } : {}) },
    // Checkout takes one or the other: an existing customer keeps its cards and invoices.
    ...(input.customerId
      ? { customer: input.customerId }
      : input.customerEmail
        ? { customer_email: input.customerEmail }
        : {}),
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
  };
}

/**
 * Unreachable, timed out, rate limited or 5xx: nothing was done, try later. Any other 4xx: Stripe
 * refused this request (unknown customer, bad parameter, wrong key).
 */
function providerError(err: unknown): never {
  if (err instanceof Stripe.errors.StripeError) {
    const status = err.statusCode;
    if (status === undefined || status >= 500 || status === 429 || err instanceof Stripe.errors.StripeConnectionError) {
      throw new ProviderUnavailableError('stripe', err);
    }
    throw new ProviderRefusedError('stripe', err.code ?? 'invalid_request', err.message);
  }
  throw new ProviderUnavailableError('stripe', err);
}
