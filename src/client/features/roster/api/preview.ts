import { useQuery } from '@tanstack/react-query';
import type { RosterPreview } from '@contract';
import { apiRequest } from '@/lib/api';
import { rosterQueryKey } from './sources';

export function fetchRosterPreview(organizationId: string, runId: string) {
  return apiRequest<RosterPreview>('GET', `/api/roster/runs/${runId}/preview`, undefined, { organizationId });
}

/** What a waiting run would add, change, move and mark as left. */
export function useRosterPreview(organizationId: string, runId: string | undefined) {
  return useQuery({
    queryKey: [...rosterQueryKey(organizationId), 'preview', runId],
    queryFn: () => fetchRosterPreview(organizationId, runId!),
    enabled: runId !== undefined,
  });
}
