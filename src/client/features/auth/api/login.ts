import { useMutation } from '@tanstack/react-query';
import type { LoginBody, SignInReply } from '@contract';
import { apiRequest } from '@/lib/api';

export function login(body: LoginBody) {
  return apiRequest<SignInReply>('POST', '/api/login', body);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
