import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PortalMe } from '@contract';
import { portalMeQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** GET /api/portal/me: who is signed in, where, their code and how they want to hear. */
export function fetchPortalMe() {
  return portalRequest<PortalMe>('GET', '/api/portal/me');
}

export const portalMeQuery = queryOptions({ queryKey: portalMeQueryKey, queryFn: fetchPortalMe });

export function usePortalMe() {
  return useQuery(portalMeQuery);
}
