import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ORGANIZATION_HEADER, TOTAL_COUNT_HEADER, type Recipient } from '@contract';
import { ApiError } from '@/lib/api';
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
export interface RecipientPage {
  items: Recipient[];
  total: number;
}

/** Every recipient list of the organization; invalidating it refreshes all of them. */
export function recipientsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/recipients');
}

function listUrl({ search, active, limit, offset }: RecipientListParams) {
  const query = new URLSearchParams();
  if (search?.trim()) query.set('search', search.trim());
  if (active !== undefined) query.set('active', String(active));
  if (limit !== undefined) query.set('limit', String(limit));
  if (offset) query.set('offset', String(offset));
  const text = query.toString();
  return text ? `/api/recipients?${text}` : '/api/recipients';
}

/** GET /api/recipients; the body is the page, the total travels in a header (spec §7). */
export async function fetchRecipients(
  organizationId: string,
  params: RecipientListParams = {},
): Promise<RecipientPage> {
  const res = await fetch(listUrl(params), {
    headers: { [ORGANIZATION_HEADER]: organizationId },
    credentials: 'include',
  });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
  const items = (text ? JSON.parse(text) : []) as Recipient[];
  const header = Number(res.headers.get(TOTAL_COUNT_HEADER));
  return { items, total: Number.isFinite(header) && res.headers.has(TOTAL_COUNT_HEADER) ? header : items.length };
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
