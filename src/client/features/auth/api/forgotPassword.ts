import type { MessageReply } from '@contract';
import { apiRequest } from '@/lib/api';

export function requestPasswordReset(body: { email: string }) {
  return apiRequest<MessageReply>('POST', '/api/forgot-password', body);
}
