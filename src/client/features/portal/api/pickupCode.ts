import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PortalMe, RecipientPickupCode } from '@contract';
import { portalMeQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** POST /api/portal/pickup-code: a new code; the old one stops working at once. */
export function renewPickupCode() {
  return portalRequest<RecipientPickupCode>('POST', '/api/portal/pickup-code');
}

/** The new code replaces the old one in the page's `me` (the call answers only the code). */
export function useRenewPickupCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renewPickupCode,
    onSuccess: (pickupCode) =>
      queryClient.setQueryData<PortalMe>(portalMeQueryKey, (me) => me && { ...me, pickupCode }),
  });
}
