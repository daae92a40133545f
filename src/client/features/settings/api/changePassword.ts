import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

export function changePassword(body: { currentPassword: string; newPassword: string }) {
  return apiRequest<unknown>('POST', '/api/change-password', body);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
