import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Organization } from '@contract';
import { apiRequest } from '@/lib/api';
import { organizationsQueryKey } from './organizations';

export function organizationQueryKey(id: string) {
  return [...organizationsQueryKey, id] as const;
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
