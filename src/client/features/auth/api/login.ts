import { useMutation } from '@tanstack/react-query';
import type { LoginBody, User } from '@contract';
import { apiRequest } from '@/lib/api';

export function login(body: LoginBody) {
  return apiRequest<User>('POST', '/api/login', body);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
