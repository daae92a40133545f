import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MailItem } from '@contract';
import { apiRequest } from '@/lib/api';
import { mailItemsQueryKey } from '@/lib/resources/keys';

/** GET /api/mail-items/{id}: the full item (404 once it is deleted). */
export function fetchMailItem(organizationId: string, id: string) {
  return apiRequest<MailItem>('GET', `/api/mail-items/${id}`, undefined, { organizationId });
}

/** Under the mail items key, so every mail change (invalidateMailItems) refreshes it. */
export function mailItemQuery(organizationId: string, id: string) {
  return queryOptions({
    queryKey: [...mailItemsQueryKey(organizationId), 'item', id] as const,
    queryFn: () => fetchMailItem(organizationId, id),
  });
}

/**
 * The full item behind a list row (the lists carry summaries): fetched when a row is opened or
 * edited. `fresh` fetches it again on mount even when cached, for a form to start from.
 */
export function useMailItem(organizationId: string, id: string, enabled: boolean, { fresh = false } = {}) {
  return useQuery({ ...mailItemQuery(organizationId, id), enabled, refetchOnMount: fresh ? 'always' : true });
}
