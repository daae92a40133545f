import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CaptureReply,
  CheckoutSessionReply,
  CreateCheckoutSessionBody,
  CreatePaypalOrderBody,
  CreatePortalSessionBody,
  DemoCheckout,
  IdParams,
  License,
  LicenseSummary,
  Organization,
  OrganizationParams,
  Payment,
  PaypalOrderParams,
  PaypalOrderReply,
  PaypalSetupReply,
  PlansReply,
  UpgradeBody,
  UrlReply,
} from '../../../contract';
import type { App } from '../../http';
import { errorReplies } from '../../http';
import { AppError } from '../../lib/errors';
import { callerOf } from '../../plugins/organization';
import type { BillingService } from './billing.service';
import type { StripeWebhooks } from './stripe-webhooks';

/**
 * Billing calls: HTTP only. Every call but the plan table and the webhook is for admins of the
 * organization; a member's attempt is refused (403) and written to the organization's audit log.
 * A payment choice this server does not offer answers 409 payment_method_unavailable and writes
 * nothing (decision 028); the writes that reach a provider are limited per organization (429).
 */
export function billingRoutes(app: App, billing: BillingService, webhooks: StripeWebhooks) {
  const tags = ['Billing'];

  /** requireAdmin, with the refusal audited: a member trying to buy or open billing is worth knowing. */
  async function requireBillingAdmin(request: FastifyRequest) {
    try {
      await app.requireAdmin(request);
    } catch (err) {
      if (err instanceof AppError && request.membership) {
        await billing.recordAdminRefusal(
          callerOf(request),
          err.message,
          `${request.method} ${request.routeOptions.url}`,
        );
      }
      throw err;
    }
  }
  const admin = [app.authenticate, app.requireOrganization, requireBillingAdmin];

  app.get('/api/plans', {
    schema: {
      tags,
      summary:
        'The plan table (public): prices, seats, package limits, features, and which payment choices this server offers',
      response: { 200: PlansReply },
    },
    handler: async () => billing.plans(),
  });

  app.get('/api/licenses/summary', {
    schema: {
      tags,
      summary: 'Plan, status, seats used and available, price, trial days left, usage (admin)',
      response: { 200: LicenseSummary, ...errorReplies(400, 401, 403) },
    },
    preValidation: admin,
    handler: async (request) => billing.summary(callerOf(request)),
  });

  app.get('/api/licenses/active', {
    schema: {
      tags,
      summary: 'Active licences: one per purchase, with renewal dates (admin)',
      response: { 200: z.array(License), ...errorReplies(400, 401, 403) },
    },
    preValidation: admin,
    handler: async (request) => billing.activeLicenses(callerOf(request)),
  });

  app.get('/api/billing/payments', {
    schema: {
      tags,
      summary: 'Payments and failed charges, newest first (admin)',
      response: { 200: z.array(Payment), ...errorReplies(400, 401, 403) },
    },
    preValidation: admin,
    handler: async (request) => billing.payments(callerOf(request)),
  });

  app.post('/api/billing/create-checkout-session', {
    schema: {
      tags,
      summary:
        'Start a card checkout for a plan and seats (admin): a Stripe Checkout Session, or the demo provider with DEMO_PAYMENTS; 409 payment_method_unavailable otherwise',
      body: CreateCheckoutSessionBody,
      response: { 200: CheckoutSessionReply, ...errorReplies(400, 401, 403, 404, 409, 429, 502) },
    },
    preValidation: admin,
    handler: async (request) => billing.createCheckoutSession(callerOf(request), request.body),
  });

  app.post('/api/billing/create-portal-session', {
    schema: {
      tags,
      summary:
        "Open Stripe's customer portal for the organization's own customer (admin); 404 no_subscription, 409 demo_environment or payment_method_unavailable",
      body: CreatePortalSessionBody,
      response: { 200: UrlReply, ...errorReplies(400, 401, 403, 404, 409, 429, 502) },
    },
    preValidation: admin,
    handler: async (request) => billing.createPortalSession(callerOf(request), request.body?.customerId),
  });

  app.get('/api/billing/demo-checkouts/:id', {
    schema: {
      tags,
      summary:
        'A demo provider checkout of the organization (admin; only with DEMO_PAYMENTS, else 409 payment_method_unavailable)',
      params: IdParams,
      response: { 200: DemoCheckout, ...errorReplies(400, 401, 403, 404, 409) },
    },
    preValidation: admin,
    handler: async (request) => billing.demoCheckout(callerOf(request), request.params.id),
  });

  app.post('/api/billing/demo-checkouts/:id/complete', {
    schema: {
      tags,
      summary:
        'Pay a demo checkout with the local simulated provider and apply its plan (admin; only with DEMO_PAYMENTS and within an hour of opening it, else 409)',
      params: IdParams,
      response: { 200: Organization, ...errorReplies(400, 401, 403, 404, 409, 429) },
    },
    preValidation: admin,
    handler: async (request) => billing.completeDemoCheckout(callerOf(request), request.params.id),
  });

  app.get('/api/paypal/setup', {
    schema: {
      tags,
      summary:
        "PayPal's client token and client id, or demo: true with DEMO_PAYMENTS (admin); 409 payment_method_unavailable when PayPal is not offered",
      response: { 200: PaypalSetupReply, ...errorReplies(400, 401, 403, 409, 502) },
    },
    preValidation: admin,
    handler: async () => billing.paypalSetup(),
  });

  app.post('/api/paypal/order', {
    schema: {
      tags,
      summary:
        'Create a PayPal order for a plan and seats (admin): the server prices it; a client amount that disagrees answers 400',
      body: CreatePaypalOrderBody,
      response: { 200: PaypalOrderReply, ...errorReplies(400, 401, 403, 409, 429, 502) },
    },
    preValidation: admin,
    handler: async (request) => billing.createPaypalOrder(callerOf(request), request.body),
  });

  app.post('/api/paypal/order/:id/capture', {
    schema: {
      tags,
      summary:
        "Capture the organization's PayPal order and apply its plan once PayPal reports it COMPLETED for the priced amount (admin)",
      params: PaypalOrderParams,
      body: UpgradeBody,
      response: { 200: CaptureReply, ...errorReplies(400, 401, 402, 403, 404, 409, 429, 502) },
    },
    preValidation: admin,
    handler: async (request) => billing.capturePaypalOrder(callerOf(request), request.params.id, request.body),
  });

  app.post('/api/organizations/:id/upgrade', {
    schema: {
      tags,
      summary:
        'The organization, when a verified payment backs exactly this plan and seat count (admin); 402 payment_required otherwise',
      params: OrganizationParams,
      body: UpgradeBody,
      response: { 200: Organization, ...errorReplies(400, 401, 402, 403, 404) },
    },
    // The organization is the path's (another's id answers 404, so ids cannot be probed).
    preValidation: [app.authenticate, app.requirePathOrganization, requireBillingAdmin],
    handler: async (request) => billing.upgrade(callerOf(request), request.body),
  });

  // Stripe signs the exact bytes it sent: this route alone keeps the raw body.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post('/api/webhooks/stripe', {
      schema: {
        tags,
        summary:
          'Stripe events (signed): checkout completed (granted once paid), async payment succeeded/failed, subscription created/updated/deleted, invoice paid/failed; replays change nothing',
        response: {
          200: z.object({
            received: z.literal(true),
            duplicate: z.boolean().optional(),
            ignored: z.boolean().optional(),
          }),
          ...errorReplies(400),
        },
      },
      handler: async (request) => {
        const raw = request.headers['stripe-signature'];
        const signature = Array.isArray(raw) ? raw[0] : raw;
        return webhooks.handle(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0), signature);
      },
    });
  });
}
