import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Member, Role } from '@contract';
import { apiRequest } from '@/lib/api';
import { auditLogQueryKey, membersQueryKey, organizationsQueryKey } from '@/lib/resources/keys';

export function updateMemberRole(organizationId: string, userId: string, role: Role) {
  return apiRequest<Member>(
    'PUT',
    `/api/organizations/${organizationId}/members/${userId}`,
    { role },
    {
      organizationId,
    },
  );
}

/**
 * Changes a member's role. The list shows the new role at once and goes back if the server refuses
 * (the last admin cannot be demoted). The organizations list is refreshed too: an admin who demoted
 * themselves loses the admin tabs.
 */
export function useUpdateMemberRole(organizationId: string) {
  const queryClient = useQueryClient();
  const queryKey = membersQueryKey(organizationId);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) => updateMemberRole(organizationId, userId, role),
    onMutate: async ({ userId, role }) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData<Member[]>(queryKey);
      if (previous) {
        queryClient.setQueryData<Member[]>(
          queryKey,
          previous.map((m) => (m.userId === userId ? { ...m, role } : m)),
        );
      }
      return { previous };
    },
    onError: (_err, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: organizationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditLogQueryKey(organizationId) }),
      ]),
  });
}
