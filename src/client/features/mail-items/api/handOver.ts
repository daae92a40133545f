import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HandOverBody, Handover, PickupLookup } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateMailItems } from './invalidateMailItems';

/** Whose pickup code it is and their waiting items; typed, scanned or read by the camera. */
export function lookupPickupCode(organizationId: string, code: string) {
  return apiRequest<PickupLookup>('GET', `/api/pickups/lookup?code=${encodeURIComponent(code)}`, undefined, {
    organizationId,
  });
}

/** Hands items over with proof, all or none; the lists, counters and dashboard refresh. */
export function useHandOver(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: HandOverBody) => apiRequest<Handover>('POST', '/api/handovers', body, { organizationId }),
    onSuccess: () => invalidateMailItems(queryClient, organizationId),
  });
}
