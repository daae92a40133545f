import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageReply } from '@contract';
import { apiRequest } from '@/lib/api';
import { currentUserQueryKey } from '@/lib/resources/keys';

/** POST /api/verify-email with the token of the emailed link; the signed-in user (if any) is refreshed. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiRequest<MessageReply>('POST', '/api/verify-email', { token }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
  });
}

/** POST /api/verify-email/resend: a new link for the signed-in account. */
export function useResendVerification() {
  return useMutation({ mutationFn: () => apiRequest<MessageReply>('POST', '/api/verify-email/resend') });
}
