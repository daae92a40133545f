import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardTrends } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function dashboardTrendsQuery(organizationId: string) {
  return queryOptions({
    queryKey: orgQueryKey(organizationId, '/api/dashboard/trends'),
    queryFn: () => apiRequest<DashboardTrends>('GET', '/api/dashboard/trends', undefined, { organizationId }),
  });
}

/** Runs only once an organization is selected. */
export function useDashboardTrends(organizationId: string | undefined) {
  return useQuery({ ...dashboardTrendsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}
