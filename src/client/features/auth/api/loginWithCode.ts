import { useMutation } from '@tanstack/react-query';
import type { LoginTwoFactorBody, SignInReply } from '@contract';
import { apiRequest } from '@/lib/api';

/** The second step of a sign-in with two-factor on. */
export function useLoginWithCode() {
  return useMutation({
    mutationFn: (body: LoginTwoFactorBody) => apiRequest<SignInReply>('POST', '/api/login/two-factor', body),
  });
}
