import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateScimTokenBody, CreatedScimToken } from '@contract';
import { apiRequest } from '@/lib/api';
import { scimTokensQueryKey } from './scimTokens';

export function createScimToken(organizationId: string, body: CreateScimTokenBody) {
  return apiRequest<CreatedScimToken>('POST', '/api/scim/tokens', body, { organizationId });
}

/** Admins only; the answer holds the token in clear, this once. */
export function useCreateScimToken(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateScimTokenBody) => createScimToken(organizationId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scimTokensQueryKey(organizationId) }),
  });
}
