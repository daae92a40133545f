import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RosterRun } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateRoster } from './sources';

export function decideRosterRun(organizationId: string, runId: string, decision: 'approve' | 'reject') {
  return apiRequest<RosterRun>('POST', `/api/roster/runs/${runId}/${decision}`, undefined, { organizationId });
}

/** Approve applies the preview's changes; reject changes nothing. 409 when it no longer waits. */
export function useDecideRosterRun(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ runId, decision }: { runId: string; decision: 'approve' | 'reject' }) =>
      decideRosterRun(organizationId, runId, decision),
    onSettled: () => invalidateRoster(queryClient, organizationId),
  });
}
