import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardStats } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function fetchDashboardStats(organizationId: string) {
  return apiRequest<DashboardStats>('GET', '/api/dashboard/stats', undefined, { organizationId });
}

export function dashboardStatsQuery(organizationId: string) {
  return queryOptions({
    queryKey: orgQueryKey(organizationId, '/api/dashboard/stats'),
    queryFn: () => fetchDashboardStats(organizationId),
  });
}

/** Runs only once an organization is selected. */
export function useDashboardStats(organizationId: string | undefined) {
  return useQuery({ ...dashboardStatsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}
