import { useMutation } from '@tanstack/react-query';
import type { LoginBody, LoginReply } from '@contract';
import { apiRequest } from '@/lib/api';

export function login(body: LoginBody) {
  return apiRequest<LoginReply>('POST', '/api/login', body);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
