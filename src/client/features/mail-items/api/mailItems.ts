import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { MailItemSummary } from '@contract';
import { fetchPage, withQuery, type Page } from '@/lib/api';
import { mailItemsQueryKey } from '@/lib/resources/keys';

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

/** One page of mail item rows and how many match in all (the x-total-count header). */
export type MailItemPage = Page<MailItemSummary>;

/**
 * GET /api/mail-items?view=summary: the rows the lists show (the full item loads by id when a row
 * is opened, see mailItem.ts). The body is the page, the total travels in a header.
 */
export function fetchMailItems(organizationId: string, params: MailItemListParams = {}): Promise<MailItemPage> {
  return fetchPage<MailItemSummary>(withQuery('/api/mail-items', { ...params, view: 'summary' }), organizationId);
}

export function mailItemsQuery(organizationId: string, params: MailItemListParams = {}) {
  return queryOptions({
    queryKey: [
      ...mailItemsQueryKey(organizationId),
      'list',
      { ...params, search: params.search?.trim(), view: 'summary' },
    ] as const,
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
