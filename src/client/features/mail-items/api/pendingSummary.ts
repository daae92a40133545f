import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PendingSummary } from '@contract';
import { apiRequest } from '@/lib/api';
import { mailItemsQueryKey } from '@/lib/resources/keys';

export function fetchPendingSummary(organizationId: string) {
  return apiRequest<PendingSummary>('GET', '/api/mail-items/pending-summary', undefined, { organizationId });
}

/** Under the mail items key, so every mail change refreshes the counters. */
export function pendingSummaryQuery(organizationId: string) {
  return queryOptions({
    queryKey: [...mailItemsQueryKey(organizationId), 'pending-summary'] as const,
    queryFn: () => fetchPendingSummary(organizationId),
  });
}

/** The Total Pending, Overdue and Notified counters. */
export function usePendingSummary(organizationId: string) {
  return useQuery(pendingSummaryQuery(organizationId));
}
