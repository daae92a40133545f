import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Mailroom } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateMailrooms } from './invalidateMailrooms';
import type { MailroomBody } from './mailrooms';

export function updateMailroom(organizationId: string, id: string, changes: Partial<MailroomBody>) {
  return apiRequest<Mailroom>('PUT', `/api/mailrooms/${id}`, changes, { organizationId });
}

/** Admins only; also refreshes the locations, which carry the mailroom's name. */
export function useUpdateMailroom(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: Partial<MailroomBody> }) =>
      updateMailroom(organizationId, id, changes),
    onSuccess: () => invalidateMailrooms(queryClient, organizationId),
  });
}
