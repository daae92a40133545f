import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RosterSource, RosterSourceBody } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateRoster } from './sources';

export function saveRosterSource(organizationId: string, id: string | undefined, body: RosterSourceBody) {
  return id
    ? apiRequest<RosterSource>('PUT', `/api/roster/sources/${id}`, body, { organizationId })
    : apiRequest<RosterSource>('POST', '/api/roster/sources', body, { organizationId });
}

/** Creates the source, or changes it (a secret left empty stays as stored). */
export function useSaveRosterSource(organizationId: string, id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RosterSourceBody) => saveRosterSource(organizationId, id, body),
    onSuccess: () => invalidateRoster(queryClient, organizationId),
  });
}
