import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ORGANIZATION_HEADER, TOTAL_COUNT_HEADER, type MailItem } from '@contract';
import { ApiError } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export interface MailItemListParams {
  /** One status or a comma list, e.g. "pending,notified". */
  status?: string;
  type?: string;
  recipientId?: string;
  locationId?: string;
  /** Tracking number, sender or recipient name. */
  search?: string;
  /** desc (newest first) by default; asc puts overdue items first, then the oldest. */
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

/** One page of mail items and how many match in all (the x-total-count header). */
export interface MailItemPage {
  items: MailItem[];
  total: number;
}

/** Every mail item query of the organization (lists, summary, timelines); invalidating it refreshes them all. */
export function mailItemsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/mail-items');
}

function listUrl(params: MailItemListParams) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    if (key === 'offset' && value === 0) continue;
    query.set(key, typeof value === 'string' ? value.trim() : String(value));
  }
  const text = query.toString();
  return text ? `/api/mail-items?${text}` : '/api/mail-items';
}

/** GET /api/mail-items: the body is the page, the total travels in a header. */
export async function fetchMailItems(organizationId: string, params: MailItemListParams = {}): Promise<MailItemPage> {
  const res = await fetch(listUrl(params), {
    headers: { [ORGANIZATION_HEADER]: organizationId },
    credentials: 'include',
  });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
  const items = (text ? JSON.parse(text) : []) as MailItem[];
  const header = res.headers.get(TOTAL_COUNT_HEADER);
  const total = header === null ? Number.NaN : Number(header);
  return { items, total: Number.isFinite(total) ? total : items.length };
}

export function mailItemsQuery(organizationId: string, params: MailItemListParams = {}) {
  return queryOptions({
    queryKey: [...mailItemsQueryKey(organizationId), 'list', { ...params, search: params.search?.trim() }] as const,
    queryFn: () => fetchMailItems(organizationId, params),
  });
}

/** A page of mail items; the previous page stays on screen while the next one loads. */
export function useMailItems(organizationId: string | undefined, params: MailItemListParams = {}) {
  return useQuery({
    ...mailItemsQuery(organizationId ?? '', params),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}
