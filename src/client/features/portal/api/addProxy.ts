import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Proxy } from '@contract';
import { portalProxiesQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** POST /api/portal/proxies */
export function addProxy(name: string) {
  return portalRequest<Proxy>('POST', '/api/portal/proxies', { name });
}

/** The list is fetched again: the server keeps it in name order. */
export function useAddProxy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addProxy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: portalProxiesQueryKey }),
  });
}
