import type { QueryClient } from '@tanstack/react-query';
import { invalidateDashboard } from '@/lib/resources/invalidate';
import { locationsQueryKey, mailItemsQueryKey } from '@/lib/resources/keys';

/**
 * Spec §7: after mail is logged, updated or deleted, the mail item lists (and the pending summary
 * and timelines under the same key), dashboard stats, recent activity and locations (their
 * currentCount) refresh.
 */
export function invalidateMailItems(queryClient: QueryClient, organizationId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: mailItemsQueryKey(organizationId) }),
    invalidateDashboard(queryClient, organizationId),
    queryClient.invalidateQueries({ queryKey: locationsQueryKey(organizationId) }),
  ]);
}
