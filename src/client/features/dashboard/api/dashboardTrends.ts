import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardTrends } from '@contract';
import { apiRequest } from '@/lib/api';
import { dashboardTrendsQueryKey } from '@/lib/resources/keys';

export function dashboardTrendsQuery(organizationId: string) {
  return queryOptions({
    queryKey: dashboardTrendsQueryKey(organizationId),
    queryFn: () => apiRequest<DashboardTrends>('GET', '/api/dashboard/trends', undefined, { organizationId }),
  });
}

/** Runs only once an organization is selected. */
export function useDashboardTrends(organizationId: string | undefined) {
  return useQuery({ ...dashboardTrendsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}
