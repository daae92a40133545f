import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { SsoConnection, SsoConnectionBody, SsoTestReply } from '@contract';
import { ApiError, apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function ssoConnectionQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/sso/connection');
}

/** The organization's connection, or null when none is set up (the server's 404). */
export async function fetchSsoConnection(organizationId: string): Promise<SsoConnection | null> {
  try {
    return await apiRequest<SsoConnection>('GET', '/api/sso/connection', undefined, { organizationId });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** Settings > Single sign-on (admins only). */
export function useSsoConnection(organizationId: string) {
  return useQuery(
    queryOptions({
      queryKey: ssoConnectionQueryKey(organizationId),
      queryFn: () => fetchSsoConnection(organizationId),
    }),
  );
}

const invalidate = (queryClient: QueryClient, organizationId: string) =>
  queryClient.invalidateQueries({ queryKey: ssoConnectionQueryKey(organizationId) });

export function useSaveSsoConnection(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoConnectionBody) =>
      apiRequest<SsoConnection>('PUT', '/api/sso/connection', body, { organizationId }),
    onSuccess: () => invalidate(queryClient, organizationId),
  });
}

export function useRemoveSsoConnection(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<void>('DELETE', '/api/sso/connection', undefined, { organizationId }),
    onSuccess: () => invalidate(queryClient, organizationId),
  });
}

/** Reads the provider's discovery document (the typed issuer, else the saved one). */
export function useTestSsoConnection(organizationId: string) {
  return useMutation({
    mutationFn: (oidcIssuer: string | null) =>
      apiRequest<SsoTestReply>('POST', '/api/sso/connection/test', { oidcIssuer }, { organizationId }),
  });
}
