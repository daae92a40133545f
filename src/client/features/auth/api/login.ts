import type { LoginBody, LoginReply } from '@contract';
import { apiRequest } from '@/lib/api';

export function login(body: LoginBody) {
  return apiRequest<LoginReply>('POST', '/api/login', body);
}
