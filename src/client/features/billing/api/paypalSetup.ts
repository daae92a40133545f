import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaypalSetupReply } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function paypalSetupQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/paypal/setup');
}

/** PayPal's client id for its JS SDK, or `demo: true` while the server runs the demo provider. */
export function fetchPaypalSetup(organizationId: string) {
  return apiRequest<PaypalSetupReply>('GET', '/api/paypal/setup', undefined, { organizationId });
}

/** Asked when PayPal is chosen, not before: most people pay by card. */
export function paypalSetupQuery(organizationId: string) {
  return queryOptions({
    queryKey: paypalSetupQueryKey(organizationId),
    queryFn: () => fetchPaypalSetup(organizationId),
  });
}

export function usePaypalSetup(organizationId: string, enabled: boolean) {
  return useQuery({ ...paypalSetupQuery(organizationId), enabled });
}
