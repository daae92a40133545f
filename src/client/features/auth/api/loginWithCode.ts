import type { LoginTwoFactorBody, SignInReply } from '@contract';
import { apiRequest } from '@/lib/api';

/** The second step of a sign-in with two-factor on. */
export function loginWithCode(body: LoginTwoFactorBody) {
  return apiRequest<SignInReply>('POST', '/api/login/two-factor', body);
}
