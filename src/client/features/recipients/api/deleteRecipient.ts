import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { invalidateRecipients } from '@/lib/resources/recipients';

export function deleteRecipient(organizationId: string, id: string) {
  return apiRequest<void>('DELETE', `/api/recipients/${id}`, undefined, { organizationId });
}

/** Admins only. */
export function useDeleteRecipient(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteRecipient(organizationId, id),
    onSuccess: () => invalidateRecipients(queryClient, organizationId),
  });
}
