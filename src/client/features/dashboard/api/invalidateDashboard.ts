import type { QueryClient } from '@tanstack/react-query';
import { orgQueryKey } from '@/lib/queryClient';
import { dashboardStatsQuery } from './dashboardStats';
import { dashboardTrendsQuery } from './dashboardTrends';

/**
 * After mail is logged, changed or deleted: the stat cards, their trend texts, every Recent Mail
 * Activity list (spec §7) and the reports.
 */
export function invalidateDashboard(queryClient: QueryClient, organizationId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: dashboardStatsQuery(organizationId).queryKey }),
    queryClient.invalidateQueries({ queryKey: dashboardTrendsQuery(organizationId).queryKey }),
    queryClient.invalidateQueries({ queryKey: orgQueryKey(organizationId, '/api/dashboard/recent-activity') }),
    queryClient.invalidateQueries({ queryKey: orgQueryKey(organizationId, '/api/analytics') }),
  ]);
}
