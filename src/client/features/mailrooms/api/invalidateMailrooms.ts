import type { QueryClient } from '@tanstack/react-query';
import { invalidateAfter } from '@/lib/resources/invalidate';

/** After a mailroom or location change: what the map says a storage change makes stale (invalidate.ts). */
export function invalidateMailrooms(queryClient: QueryClient, organizationId: string) {
  return invalidateAfter(queryClient, organizationId, 'storage');
}
