import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardStats } from '@contract';
import { apiRequest } from '@/lib/api';
import { dashboardStatsQueryKey } from '@/lib/resources/keys';

export function fetchDashboardStats(organizationId: string) {
  return apiRequest<DashboardStats>('GET', '/api/dashboard/stats', undefined, { organizationId });
}

export function dashboardStatsQuery(organizationId: string) {
  return queryOptions({
    queryKey: dashboardStatsQueryKey(organizationId),
    queryFn: () => fetchDashboardStats(organizationId),
  });
}

/** Runs only once an organization is selected. */
export function useDashboardStats(organizationId: string | undefined) {
  return useQuery({ ...dashboardStatsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}
