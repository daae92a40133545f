import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Recipient } from '@contract';
import { fetchPage, withQuery, type Page } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export interface RecipientListParams {
  /** Matches name, email, unit and department. */
  search?: string;
  /** true: only active recipients; false: only inactive; omitted: both. */
  active?: boolean;
  limit?: number;
  offset?: number;
}

/** One page of recipients and how many match in all (the x-total-count header). */
export type RecipientPage = Page<Recipient>;

/** Every recipient list of the organization; invalidating it refreshes all of them. */
export function recipientsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/recipients');
}

/** GET /api/recipients; the body is the page, the total travels in a header (spec §7). */
export function fetchRecipients(organizationId: string, params: RecipientListParams = {}): Promise<RecipientPage> {
  return fetchPage<Recipient>(withQuery('/api/recipients', { ...params }), organizationId);
}

export function recipientsQuery(organizationId: string, params: RecipientListParams = {}) {
  const { search = '', active, limit, offset = 0 } = params;
  return queryOptions({
    queryKey: [...recipientsQueryKey(organizationId), { search: search.trim(), active, limit, offset }] as const,
    queryFn: () => fetchRecipients(organizationId, params),
  });
}

/** A page of recipients; the previous page stays on screen while the next one loads. */
export function useRecipients(organizationId: string | undefined, params: RecipientListParams = {}) {
  return useQuery({
    ...recipientsQuery(organizationId ?? '', params),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}
