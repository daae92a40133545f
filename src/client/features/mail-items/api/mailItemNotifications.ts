import { useQuery } from '@tanstack/react-query';
import type { NotificationMessage } from '@contract';
import { apiRequest } from '@/lib/api';
import { mailItemsQueryKey } from '@/lib/resources/keys';

/** While a message is on its way (or one is expected shortly), the list is fetched again this often. */
export const NOTIFICATIONS_POLL_MS = 3000;
/** After an item changes, messages may still be fanned out from the queue for this long. */
const SETTLING_MS = 60_000;

export function fetchMailItemNotifications(organizationId: string, id: string) {
  return apiRequest<NotificationMessage[]>('GET', `/api/mail-items/${id}/notifications`, undefined, {
    organizationId,
  });
}

function shouldPoll(messages: NotificationMessage[] | undefined, changedAt: string | undefined, now = Date.now()) {
  if (messages?.some((m) => m.status === 'queued' || m.status === 'sending')) return true;
  if (!changedAt) return false;
  // The item just changed: its messages may not be written yet (the queue fans events out).
  const changed = new Date(changedAt).getTime();
  const newest = messages?.[0] ? new Date(messages[0].createdAt).getTime() : 0;
  return now - changed < SETTLING_MS && newest < changed;
}

/**
 * What was sent about the item, newest first. Under the item's key, so an item change refreshes
 * it; polled every 3 s while any message is queued or sending. `changedAt` (the item's updatedAt)
 * is undefined while the full item is still loading: the list is fetched meanwhile, in parallel.
 */
export function useMailItemNotifications(
  organizationId: string,
  id: string,
  changedAt: string | undefined,
  enabled: boolean,
) {
  return useQuery({
    queryKey: [...mailItemsQueryKey(organizationId), 'notifications', id] as const,
    queryFn: () => fetchMailItemNotifications(organizationId, id),
    enabled,
    refetchInterval: (query) =>
      query.state.status === 'error' ? false : shouldPoll(query.state.data, changedAt) ? NOTIFICATIONS_POLL_MS : false,
  });
}
