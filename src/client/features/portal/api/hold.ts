import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ItemHoldBody, PortalItem, PortalItemPage } from '@contract';
import { portalItemsQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** PUT /api/portal/items/{id}/hold: hold a waiting item until the end of a date; null lifts the hold. */
export function holdItem(id: string, until: ItemHoldBody['until']) {
  return portalRequest<PortalItem>('PUT', `/api/portal/items/${id}/hold`, { until } satisfies ItemHoldBody);
}

/** The answer is the item as it now is: it takes the old one's place in the waiting list. */
export function useHoldItem(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (until: ItemHoldBody['until']) => holdItem(id, until),
    onSuccess: (item) =>
      queryClient.setQueryData<PortalItemPage>(
        portalItemsQueryKey('waiting'),
        (page) => page && { ...page, items: page.items.map((i) => (i.id === item.id ? item : i)) },
      ),
  });
}
