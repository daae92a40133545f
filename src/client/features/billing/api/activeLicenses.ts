import { queryOptions, useQuery } from '@tanstack/react-query';
import type { License } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function activeLicensesQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/licenses/active');
}

export function fetchActiveLicenses(organizationId: string) {
  return apiRequest<License[]>('GET', '/api/licenses/active', undefined, { organizationId });
}

/** Spec §9: licences are polled every 5 s and on window focus while a billing view is open. */
export function activeLicensesQuery(organizationId: string) {
  return queryOptions({
    queryKey: activeLicensesQueryKey(organizationId),
    queryFn: () => fetchActiveLicenses(organizationId),
    refetchInterval: 5_000,
    refetchOnWindowFocus: true,
    refetchOnMount: 'always',
  });
}

export function useActiveLicenses(organizationId: string, enabled = true) {
  return useQuery({ ...activeLicensesQuery(organizationId), enabled });
}
