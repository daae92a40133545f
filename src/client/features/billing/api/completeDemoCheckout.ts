import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Organization } from '@contract';
import { apiRequest } from '@/lib/api';
import { demoCheckoutQueryKey } from './demoCheckout';
import { invalidateBilling } from './invalidateBilling';

/** Pays a demo checkout with the local simulated provider; the server applies the plan. */
export function completeDemoCheckout(organizationId: string, id: string) {
  return apiRequest<Organization>('POST', `/api/billing/demo-checkouts/${encodeURIComponent(id)}/complete`, undefined, {
    organizationId,
  });
}

export function useCompleteDemoCheckout(organizationId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => completeDemoCheckout(organizationId, id),
    onSuccess: () =>
      Promise.all([
        invalidateBilling(queryClient, organizationId),
        queryClient.invalidateQueries({ queryKey: demoCheckoutQueryKey(organizationId, id) }),
      ]),
  });
}
