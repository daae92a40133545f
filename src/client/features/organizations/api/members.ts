import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Member } from '@contract';
import { apiRequest } from '@/lib/api';
import { organizationQueryKey } from './organization';

export function membersQueryKey(organizationId: string) {
  return [...organizationQueryKey(organizationId), 'members'] as const;
}

export function fetchMembers(organizationId: string) {
  return apiRequest<Member[]>('GET', `/api/organizations/${organizationId}/members`, undefined, { organizationId });
}

/** Spec §9: members are polled every 10 s. */
export function membersQuery(organizationId: string) {
  return queryOptions({
    queryKey: membersQueryKey(organizationId),
    queryFn: () => fetchMembers(organizationId),
    refetchInterval: 10_000,
  });
}

export function useMembers(organizationId: string) {
  return useQuery(membersQuery(organizationId));
}
