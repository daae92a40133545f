import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LicenseSummary } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function licenseSummaryQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/licenses/summary');
}

export function fetchLicenseSummary(organizationId: string) {
  return apiRequest<LicenseSummary>('GET', '/api/licenses/summary', undefined, { organizationId });
}

/** Spec §9: licences are polled every 5 s and on window focus while a billing view is open. */
export function licenseSummaryQuery(organizationId: string) {
  return queryOptions({
    queryKey: licenseSummaryQueryKey(organizationId),
    queryFn: () => fetchLicenseSummary(organizationId),
    refetchInterval: 5_000,
    refetchOnWindowFocus: true,
    refetchOnMount: 'always',
  });
}

/** Admins only (403 to members): the caller passes `enabled`. */
export function useLicenseSummary(organizationId: string, enabled = true) {
  return useQuery({ ...licenseSummaryQuery(organizationId), enabled });
}
