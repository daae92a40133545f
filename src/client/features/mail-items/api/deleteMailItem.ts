import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { invalidateMailItems } from '@/lib/resources/invalidate';

/** Spec §7: POST .../delete; the empty 204 reply is success. */
export function deleteMailItem(organizationId: string, id: string) {
  return apiRequest<void>('POST', `/api/mail-items/${id}/delete`, undefined, { organizationId });
}

export function useDeleteMailItem(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteMailItem(organizationId, id),
    onSuccess: () => invalidateMailItems(queryClient, organizationId),
  });
}
