import { useMutation, useQueryClient } from '@tanstack/react-query';
import { portalProxiesQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** DELETE /api/portal/proxies/{id} */
export function removeProxy(id: string) {
  return portalRequest<void>('DELETE', `/api/portal/proxies/${id}`);
}

export function useRemoveProxy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeProxy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: portalProxiesQueryKey }),
  });
}
