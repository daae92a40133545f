import { useMutation } from '@tanstack/react-query';
import type { RegisterBody, User } from '@contract';
import { apiRequest } from '@/lib/api';

export function register(body: RegisterBody) {
  return apiRequest<User>('POST', '/api/register', body);
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
