import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { MAIL_ITEM_HISTORY_PAGE, type MailItemHistoryEntry } from '@contract';
import { fetchPage, withQuery, type Page } from '@/lib/api';
import { mailItemsQueryKey } from '@/lib/resources/keys';

/** One page of the item's timeline, oldest first, and how many entries it has in all. */
export function fetchMailItemHistory(
  organizationId: string,
  id: string,
  offset = 0,
  limit = MAIL_ITEM_HISTORY_PAGE,
): Promise<Page<MailItemHistoryEntry>> {
  return fetchPage<MailItemHistoryEntry>(withQuery(`/api/mail-items/${id}/history`, { limit, offset }), organizationId);
}

/**
 * The item's timeline, oldest first, a page at a time (issue 41, item 7): the first page when the
 * row opens, the next ones when the person asks for more.
 */
export function mailItemHistoryQuery(organizationId: string, id: string) {
  return infiniteQueryOptions({
    queryKey: [...mailItemsQueryKey(organizationId), 'history', id] as const,
    queryFn: ({ pageParam }) => fetchMailItemHistory(organizationId, id, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? loaded : undefined;
    },
  });
}

/** Fetched only while the row is expanded. */
export function useMailItemHistory(organizationId: string, id: string, enabled: boolean) {
  return useInfiniteQuery({ ...mailItemHistoryQuery(organizationId, id), enabled });
}
