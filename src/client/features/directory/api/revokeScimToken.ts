import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScimToken } from '@contract';
import { apiRequest } from '@/lib/api';
import { scimTokensQueryKey } from './scimTokens';

export function revokeScimToken(organizationId: string, id: string) {
  return apiRequest<ScimToken>('POST', `/api/scim/tokens/${id}/revoke`, undefined, { organizationId });
}

/** Admins only: the token's next SCIM request is refused. */
export function useRevokeScimToken(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeScimToken(organizationId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scimTokensQueryKey(organizationId) }),
  });
}
