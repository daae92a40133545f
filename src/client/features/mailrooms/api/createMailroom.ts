import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Mailroom } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateMailrooms } from './invalidateMailrooms';
import type { MailroomBody } from './mailrooms';

export function createMailroom(organizationId: string, body: MailroomBody) {
  return apiRequest<Mailroom>('POST', '/api/mailrooms', body, { organizationId });
}

/** Admins only. */
export function useCreateMailroom(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MailroomBody) => createMailroom(organizationId, body),
    onSuccess: () => invalidateMailrooms(queryClient, organizationId),
  });
}
