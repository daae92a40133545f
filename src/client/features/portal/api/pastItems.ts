import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { fetchPortalItems } from './portalItems';
import { portalItemsQueryKey } from './keys';

/** Past items come a page at a time ("Show more"). */
export const PAST_ITEMS_PAGE = 10;

export const pastItemsQuery = infiniteQueryOptions({
  queryKey: portalItemsQueryKey('past'),
  queryFn: ({ pageParam }) => fetchPortalItems('past', pageParam, PAST_ITEMS_PAGE),
  initialPageParam: 0,
  getNextPageParam: (last, pages) => {
    const shown = pages.reduce((n, page) => n + page.items.length, 0);
    return shown < last.total ? shown : undefined;
  },
});

/** The past items shown so far, page after page. */
export function usePastItems() {
  return useInfiniteQuery(pastItemsQuery);
}
