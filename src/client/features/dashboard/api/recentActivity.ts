import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecentActivityItem } from '@contract';
import { apiRequest } from '@/lib/api';
import { recentActivityQueryKey } from '@/lib/resources/keys';

/** Spec §9: the dashboard shows the 5 latest items. */
export const RECENT_ACTIVITY_LIMIT = 5;

export function fetchRecentActivity(organizationId: string, limit = RECENT_ACTIVITY_LIMIT) {
  return apiRequest<RecentActivityItem[]>('GET', `/api/dashboard/recent-activity?limit=${limit}`, undefined, {
    organizationId,
  });
}

export function recentActivityQuery(organizationId: string, limit = RECENT_ACTIVITY_LIMIT) {
  return queryOptions({
    queryKey: [...recentActivityQueryKey(organizationId), limit] as const,
    queryFn: () => fetchRecentActivity(organizationId, limit),
  });
}

/** Runs only once an organization is selected. */
export function useRecentActivity(organizationId: string | undefined) {
  return useQuery({ ...recentActivityQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}
