import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchPortalItems } from './portalItems';
import { portalItemsQueryKey } from './keys';

/** The waiting items at once, up to the most the call allows. */
export const WAITING_ITEMS_MAX = 50;

export const waitingItemsQuery = queryOptions({
  queryKey: portalItemsQueryKey('waiting'),
  queryFn: () => fetchPortalItems('waiting', 0, WAITING_ITEMS_MAX),
});

export function useWaitingItems() {
  return useQuery(waitingItemsQuery);
}
