import type Stripe from 'stripe';
import type { PaidPlanType } from '../../../contract';

/**
 * What the billing service needs from the payment providers. The implementations wrap the
 * official SDKs (`stripe`, `@paypal/paypal-server-sdk`) pointed at the configured base URL, so
 * tests run them against local servers that speak the providers' APIs.
 */

/** The provider could not be reached, timed out or answered 5xx: nothing was done (502). */
export class ProviderUnavailableError extends Error {
  constructor(
    readonly provider: 'stripe' | 'paypal',
    cause?: unknown,
  ) {
    super(`${provider} unavailable`, { cause });
  }
}

/** The provider refused the request (4xx): e.g. an order the buyer never approved. */
export class ProviderRefusedError extends Error {
  constructor(
    readonly provider: 'stripe' | 'paypal',
    readonly providerCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** A webhook whose Stripe-Signature is missing, wrong, or too old. */
export class WebhookSignatureError extends Error {}

export type StripeCheckoutInput = {
  organizationId: string;
  /** Our billing_checkouts row: it travels in metadata so the webhook finds it. */
  checkoutId: string;
  planType: PaidPlanType;
  planName: string;
  quantity: number;
  /** Cents per seat per month. */
  unitAmount: number;
  /** The organization's Stripe customer, when it has one; else customerEmail pre-fills Checkout. */
  customerId: string | null;
  customerEmail: string | null;
  /** Unix seconds: the subscription's trial ends then (the rest of our trial), or null for none. */
  trialEnd: number | null;
  successUrl: string;
  cancelUrl: string;
};

export interface StripeGateway {
  /** A subscription-mode Checkout Session: one line of `quantity` seats at `unitAmount` a month. */
  createCheckoutSession(input: StripeCheckoutInput): Promise<{ id: string; url: string }>;
  createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }>;
  /** Verifies the Stripe-Signature header against the raw body; throws WebhookSignatureError. */
  constructEvent(rawBody: Buffer, signature: string | undefined): Stripe.Event;
}

export type PaypalOrderInput = {
  /** Cents. */
  amount: number;
  currency: string;
  description: string;
  /** Our billing_checkouts row id (purchase_units[0].reference_id). */
  referenceId: string;
  /** The organization id (purchase_units[0].custom_id). */
  customId: string;
};

export type PaypalCapture = {
  orderId: string;
  /** The order's status after the capture call: 'COMPLETED' when money moved. */
  status: string;
  /** The capture's own status and amount (purchase_units[0].payments.captures[0]). */
  captureId: string | null;
  captureStatus: string | null;
  /** Cents, or null when the reply carried no amount. */
  amount: number | null;
  currency: string | null;
  customId: string | null;
  referenceId: string | null;
};

export interface PaypalGateway {
  /** A client token for PayPal's JS SDK (v1/identity/generate-token). */
  clientToken(): Promise<string>;
  /** An intent CAPTURE order for one purchase unit. */
  createOrder(input: PaypalOrderInput): Promise<{ id: string; status: string }>;
  /** Captures an approved order; answers what PayPal says was captured. */
  captureOrder(orderId: string): Promise<PaypalCapture>;
}
