import { useMutation } from '@tanstack/react-query';
import type { CheckoutSessionReply, CreateCheckoutSessionBody } from '@contract';
import { apiRequest } from '@/lib/api';

/** A card checkout: Stripe Checkout, or the demo provider's page in this app when no keys are set. */
export function createCheckoutSession(organizationId: string, body: CreateCheckoutSessionBody) {
  return apiRequest<CheckoutSessionReply>('POST', '/api/billing/create-checkout-session', body, { organizationId });
}

/**
 * Sends the browser to the checkout in the same tab, so Stripe's return lands back in the app
 * (decision 012; the spec opens a new tab). The caller keeps the button busy until the page goes.
 */
export function useCreateCheckoutSession(organizationId: string) {
  return useMutation({
    mutationFn: (body: CreateCheckoutSessionBody) => createCheckoutSession(organizationId, body),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}
