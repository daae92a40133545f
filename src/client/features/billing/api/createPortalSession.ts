import { useMutation } from '@tanstack/react-query';
import type { UrlReply } from '@contract';
import { apiRequest } from '@/lib/api';

/**
 * Stripe's customer portal for the organization's own customer. 404 `no_subscription` without a
 * customer, 409 `demo_environment` for a customer of the demo provider.
 */
export function createPortalSession(organizationId: string, customerId?: string) {
  return apiRequest<UrlReply>('POST', '/api/billing/create-portal-session', customerId ? { customerId } : {}, {
    organizationId,
  });
}

export function useCreatePortalSession(organizationId: string) {
  return useMutation({ mutationFn: (customerId?: string) => createPortalSession(organizationId, customerId) });
}
