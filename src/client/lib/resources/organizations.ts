import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Member, MyOrganization, Organization } from '@contract';
import { apiRequest } from '../api';
import { keepOrganizations } from '../offlineSession';
import { membersQueryKey, organizationQueryKey, organizationsQueryKey } from './keys';

/** The caller's organizations, each with the caller's role in it. */
export async function fetchOrganizations() {
  const organizations = await apiRequest<MyOrganization[]>('GET', '/api/organizations');
  // kept for a reload without a network (lib/offlineSession.ts)
  keepOrganizations(organizations);
  return organizations;
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

export function fetchOrganization(id: string) {
  return apiRequest<Organization>('GET', `/api/organizations/${id}`, undefined, { organizationId: id });
}

export function organizationQuery(id: string) {
  return queryOptions({ queryKey: organizationQueryKey(id), queryFn: () => fetchOrganization(id) });
}

export function useOrganization(id: string) {
  return useQuery(organizationQuery(id));
}

export function fetchMembers(organizationId: string) {
  return apiRequest<Member[]>('GET', `/api/organizations/${organizationId}/members`, undefined, { organizationId });
}

/**
 * Spec §9 polled members every 10 s; the live desk's stream (decision 043) announces every
 * member change instead (lib/liveEvents.ts), so the list is refetched when one happens.
 */
export function membersQuery(organizationId: string) {
  return queryOptions({
    queryKey: membersQueryKey(organizationId),
    queryFn: () => fetchMembers(organizationId),
  });
}

export function useMembers(organizationId: string) {
  return useQuery(membersQuery(organizationId));
}
