import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Analytics } from '@contract';
import { apiRequest } from '@/lib/api';
import { analyticsQueryKey } from '@/lib/resources/keys';

export type AnalyticsRange = Analytics['range'];

/** Spec §9 history ranges; the reports open on 30 days. */
export const ANALYTICS_RANGES: Array<{ value: AnalyticsRange; label: string }> = [
  { value: '1', label: 'Today' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '0', label: 'All time' },
];
export const DEFAULT_ANALYTICS_RANGE: AnalyticsRange = '30';

export function analyticsQuery(organizationId: string, range: AnalyticsRange) {
  return queryOptions({
    queryKey: [...analyticsQueryKey(organizationId), range] as const,
    queryFn: () => apiRequest<Analytics>('GET', `/api/analytics?range=${range}`, undefined, { organizationId }),
  });
}

/** Keeps the previous range's figures on screen while another range loads. */
export function useAnalytics(organizationId: string, range: AnalyticsRange) {
  return useQuery({ ...analyticsQuery(organizationId, range), placeholderData: keepPreviousData });
}
