import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyOrganization } from '@contract';
import { apiRequest } from '@/lib/api';

export const organizationsQueryKey = ['/api/organizations'] as const;

/** The caller's organizations, each with the caller's role in it. */
export function fetchOrganizations() {
  return apiRequest<MyOrganization[]>('GET', '/api/organizations');
}

/** Spec §7: always stale; refetched every 10 s, on focus and on mount. */
export const organizationsQuery = queryOptions({
  queryKey: organizationsQueryKey,
  queryFn: fetchOrganizations,
  staleTime: 0,
  refetchInterval: 10_000,
  refetchOnWindowFocus: true,
  refetchOnMount: true,
});

export function useOrganizations() {
  return useQuery(organizationsQuery);
}
