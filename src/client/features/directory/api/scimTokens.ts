import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ScimToken } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function scimTokensQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/scim/tokens');
}

export function fetchScimTokens(organizationId: string) {
  return apiRequest<ScimToken[]>('GET', '/api/scim/tokens', undefined, { organizationId });
}

export function scimTokensQuery(organizationId: string) {
  return queryOptions({ queryKey: scimTokensQueryKey(organizationId), queryFn: () => fetchScimTokens(organizationId) });
}

/** The organization's SCIM tokens, revoked ones too (Settings > Directory; admins only). */
export function useScimTokens(organizationId: string) {
  return useQuery(scimTokensQuery(organizationId));
}
