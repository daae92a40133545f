import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecipientSummary as RecipientSummarySchema } from '@contract';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { recipientSummaryQueryKey } from '@/lib/resources/keys';

export type RecipientSummary = z.infer<typeof RecipientSummarySchema>;

export function fetchRecipientSummary(organizationId: string) {
  return apiRequest<RecipientSummary>('GET', '/api/recipients/summary', undefined, { organizationId });
}

export function recipientSummaryQuery(organizationId: string) {
  return queryOptions({
    queryKey: recipientSummaryQueryKey(organizationId),
    queryFn: () => fetchRecipientSummary(organizationId),
  });
}

/** The Total Recipients card: how many recipients, and how many of them are active. */
export function useRecipientSummary(organizationId: string | undefined) {
  return useQuery({ ...recipientSummaryQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}
