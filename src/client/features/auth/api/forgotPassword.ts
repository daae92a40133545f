import { useMutation } from '@tanstack/react-query';
import type { MessageReply } from '@contract';
import { apiRequest } from '@/lib/api';

export function requestPasswordReset(body: { email: string }) {
  return apiRequest<MessageReply>('POST', '/api/forgot-password', body);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: requestPasswordReset });
}
