import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffLanguage, User } from '@contract';
import { apiRequest } from '@/lib/api';
import { currentUserQueryKey } from '@/lib/resources/keys';

/** Account settings' language; null follows the browser's. */
export function updateLanguage(language: StaffLanguage | null) {
  return apiRequest<User>('PUT', '/api/auth/user/language', { language });
}

/**
 * Saves the choice and puts the updated user in the current-user cache: the session hears of it
 * there (QueryRoot) and the screens redraw in the language at once.
 */
export function useUpdateLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLanguage,
    onSuccess: (user) => queryClient.setQueryData(currentUserQueryKey, user),
  });
}
