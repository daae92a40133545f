import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { RosterSource } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export const rosterQueryKey = (organizationId: string) => orgQueryKey(organizationId, '/api/roster');

export function fetchRosterSources(organizationId: string) {
  return apiRequest<RosterSource[]>('GET', '/api/roster/sources', undefined, { organizationId });
}

/** The organization's roster source (Settings > Roster; admins only); at most one. */
export function useRosterSources(organizationId: string) {
  return useQuery(
    queryOptions({
      queryKey: [...rosterQueryKey(organizationId), 'sources'],
      queryFn: () => fetchRosterSources(organizationId),
    }),
  );
}

/** After a source or a run changes: the source (its next run), the runs and the previews. */
export function invalidateRoster(queryClient: QueryClient, organizationId: string) {
  return queryClient.invalidateQueries({ queryKey: rosterQueryKey(organizationId) });
}
