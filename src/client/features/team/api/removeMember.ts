import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { auditLogQueryKey, membersQueryKey } from '@/lib/resources/keys';

export function removeMember(organizationId: string, userId: string) {
  return apiRequest<void>('DELETE', `/api/organizations/${organizationId}/members/${userId}`, undefined, {
    organizationId,
  });
}

export function useRemoveMember(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeMember(organizationId, userId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: membersQueryKey(organizationId) }),
        queryClient.invalidateQueries({ queryKey: auditLogQueryKey(organizationId) }),
      ]),
  });
}
