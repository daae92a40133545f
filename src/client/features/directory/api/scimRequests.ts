import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ScimRequest } from '@contract';
import { fetchPage, withQuery, type Page } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export const SCIM_REQUESTS_PAGE_SIZE = 10;

export function scimRequestsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/scim/requests');
}

/** One page of the organization's SCIM calls, newest first (admins only). */
export function scimRequestsQuery(organizationId: string, page: number) {
  const params = { limit: SCIM_REQUESTS_PAGE_SIZE, offset: page * SCIM_REQUESTS_PAGE_SIZE };
  return queryOptions({
    queryKey: [...scimRequestsQueryKey(organizationId), params] as const,
    queryFn: (): Promise<Page<ScimRequest>> =>
      fetchPage<ScimRequest>(withQuery('/api/scim/requests', params), organizationId),
  });
}

/** Settings > Directory's Recent calls: refreshed when the tab opens, kept while the next page loads. */
export function useScimRequests(organizationId: string, page: number) {
  return useQuery({
    ...scimRequestsQuery(organizationId, page),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}
