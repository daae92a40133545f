import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@contract';
import { apiRequest } from '@/lib/api';
import { currentUserQueryKey } from '@/lib/resources/keys';

export function updateAccount(body: { firstName: string; lastName: string }) {
  return apiRequest<User>('PATCH', '/api/auth/user', body);
}

/** Saves the name and puts the updated user in the current-user cache. */
export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccount,
    onSuccess: (user) => queryClient.setQueryData(currentUserQueryKey, user),
  });
}
