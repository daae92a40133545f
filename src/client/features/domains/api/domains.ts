import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { OrganizationDomain } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function domainsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/domains');
}

export function fetchDomains(organizationId: string) {
  return apiRequest<OrganizationDomain[]>('GET', '/api/domains', undefined, { organizationId });
}

export function domainsQuery(organizationId: string) {
  return queryOptions({ queryKey: domainsQueryKey(organizationId), queryFn: () => fetchDomains(organizationId) });
}

/** The organization's email domains (Settings > Single sign-on; admins only). */
export function useDomains(organizationId: string) {
  return useQuery(domainsQuery(organizationId));
}

/** After a domain is added, verified or removed. */
export function invalidateDomains(queryClient: QueryClient, organizationId: string) {
  return queryClient.invalidateQueries({ queryKey: domainsQueryKey(organizationId) });
}
