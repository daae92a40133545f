import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RosterRun } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateRoster } from './sources';

export function runRosterNow(organizationId: string, sourceId: string) {
  return apiRequest<RosterRun>('POST', `/api/roster/sources/${sourceId}/run`, undefined, { organizationId });
}

/** Fetches and diffs at once; the answer is the run (applied, waiting, or failed with its reason). */
export function useRunRosterNow(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sourceId: string) => runRosterNow(organizationId, sourceId),
    onSettled: () => invalidateRoster(queryClient, organizationId),
  });
}
