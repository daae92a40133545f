import type { RegisterBody, SignInReply } from '@contract';
import { apiRequest } from '@/lib/api';

export function register(body: RegisterBody) {
  return apiRequest<SignInReply>('POST', '/api/register', body);
}
