import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Proxy } from '@contract';
import { portalProxiesQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** GET /api/portal/proxies: the people the recipient allows to collect for them. */
export function fetchProxies() {
  return portalRequest<Proxy[]>('GET', '/api/portal/proxies');
}

export const proxiesQuery = queryOptions({ queryKey: portalProxiesQueryKey, queryFn: fetchProxies });

export function useProxies() {
  return useQuery(proxiesQuery);
}
