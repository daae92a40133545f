import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RosterRun } from '@contract';
import { apiRequest } from '@/lib/api';
import { rosterQueryKey } from './sources';

export const ROSTER_RUNS_PAGE = 10;

export function fetchRosterRuns(organizationId: string, offset: number) {
  return apiRequest<{ runs: RosterRun[]; total: number }>(
    'GET',
    `/api/roster/runs?limit=${ROSTER_RUNS_PAGE}&offset=${offset}`,
    undefined,
    { organizationId },
  );
}

/** The roster's runs, newest first, a page at a time. */
export function useRosterRuns(organizationId: string, offset: number) {
  return useQuery({
    queryKey: [...rosterQueryKey(organizationId), 'runs', offset],
    queryFn: () => fetchRosterRuns(organizationId, offset),
    placeholderData: keepPreviousData,
  });
}
