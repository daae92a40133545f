import { apiRequest } from '@/lib/api';

export function resetPassword(body: { token: string; password: string }) {
  return apiRequest<unknown>('POST', '/api/reset-password', body);
}
