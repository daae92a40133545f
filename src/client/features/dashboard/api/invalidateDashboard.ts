import type { QueryClient } from '@tanstack/react-query';
import { orgQueryKey } from '@/lib/queryClient';
import { dashboardStatsQuery } from './dashboardStats';

/** After mail is logged, changed or deleted: the stat cards and every Recent Mail Activity list (spec §7). */
export function invalidateDashboard(queryClient: QueryClient, organizationId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: dashboardStatsQuery(organizationId).queryKey }),
    queryClient.invalidateQueries({ queryKey: orgQueryKey(organizationId, '/api/dashboard/recent-activity') }),
  ]);
}
