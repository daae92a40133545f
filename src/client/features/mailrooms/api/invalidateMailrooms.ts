import type { QueryClient } from '@tanstack/react-query';
import { locationsQueryKey, mailroomsQueryKey } from '@/lib/resources/keys';

/** After a mailroom or location change: both lists (a mailroom shows its location count). */
export function invalidateMailrooms(queryClient: QueryClient, organizationId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: mailroomsQueryKey(organizationId) }),
    queryClient.invalidateQueries({ queryKey: locationsQueryKey(organizationId) }),
  ]);
}
