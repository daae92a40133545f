import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HandOverBody, Handover, PickupLookup } from '@contract';
import { apiRequest } from '@/lib/api';
import { mailItemsQueryKey } from '@/lib/resources/keys';
import { invalidateMailItems } from '@/lib/resources/invalidate';

/** Whose pickup code it is and their waiting items; typed, scanned or read by the camera. */
export function lookupPickupCode(organizationId: string, code: string) {
  return apiRequest<PickupLookup>('GET', `/api/pickups/lookup?code=${encodeURIComponent(code)}`, undefined, {
    organizationId,
  });
}

/**
 * A recipient's waiting items as their code would show them, found by the recipient: for a
 * hand-over started from one of their items' rows when the organization requires proof (the desk
 * has no code in hand). Not a guess, so no pickup-code miss is counted, and a deactivated
 * recipient's items are found too.
 */
export function lookupByRecipient(organizationId: string, recipientId: string) {
  return apiRequest<PickupLookup>('GET', `/api/recipients/${recipientId}/pickup-lookup`, undefined, {
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

/** GET /api/handovers/{id}: the proof an item was handed over with (a hand-over never changes). */
export function useHandover(organizationId: string, id: string | null | undefined) {
  return useQuery({
    queryKey: [...mailItemsQueryKey(organizationId), 'handover', id] as const,
    queryFn: () => apiRequest<Handover>('GET', `/api/handovers/${id}`, undefined, { organizationId }),
    enabled: Boolean(id),
    staleTime: Infinity,
  });
}
