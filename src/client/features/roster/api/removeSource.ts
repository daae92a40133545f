import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { invalidateRoster } from './sources';

export function removeRosterSource(organizationId: string, id: string) {
  return apiRequest<void>('DELETE', `/api/roster/sources/${id}`, undefined, { organizationId });
}

export function useRemoveRosterSource(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => removeRosterSource(organizationId, id),
    onSuccess: () => invalidateRoster(queryClient, organizationId),
  });
}
