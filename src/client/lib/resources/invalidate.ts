import type { QueryClient } from '@tanstack/react-query';
import { analyticsQueryKey, dashboardStatsQueryKey, dashboardTrendsQueryKey, recentActivityQueryKey } from './keys';

/**
 * After mail is logged, changed or deleted: the stat cards, their trend texts, every Recent Mail
 * Activity list (spec §7) and the reports.
 */
export function invalidateDashboard(queryClient: QueryClient, organizationId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: dashboardStatsQueryKey(organizationId) }),
    queryClient.invalidateQueries({ queryKey: dashboardTrendsQueryKey(organizationId) }),
    queryClient.invalidateQueries({ queryKey: recentActivityQueryKey(organizationId) }),
    queryClient.invalidateQueries({ queryKey: analyticsQueryKey(organizationId) }),
  ]);
}
