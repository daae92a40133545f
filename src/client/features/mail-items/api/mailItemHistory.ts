import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MailItemHistoryEntry } from '@contract';
import { apiRequest } from '@/lib/api';
import { mailItemsQueryKey } from '@/lib/resources/keys';

export function fetchMailItemHistory(organizationId: string, id: string) {
  return apiRequest<MailItemHistoryEntry[]>('GET', `/api/mail-items/${id}/history`, undefined, { organizationId });
}

/** The item's timeline, oldest first. */
export function mailItemHistoryQuery(organizationId: string, id: string) {
  return queryOptions({
    queryKey: [...mailItemsQueryKey(organizationId), 'history', id] as const,
    queryFn: () => fetchMailItemHistory(organizationId, id),
  });
}

/** Fetched only while the row is expanded. */
export function useMailItemHistory(organizationId: string, id: string, enabled: boolean) {
  return useQuery({ ...mailItemHistoryQuery(organizationId, id), enabled });
}
