import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { invalidateMailrooms } from './invalidateMailrooms';

export function deleteMailroom(organizationId: string, id: string) {
  return apiRequest<void>('DELETE', `/api/mailrooms/${id}`, undefined, { organizationId });
}

/** Admins only; the server may refuse a mailroom that still holds mail (MAILROOM_NOT_EMPTY). */
export function useDeleteMailroom(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteMailroom(organizationId, id),
    onSuccess: () => invalidateMailrooms(queryClient, organizationId),
  });
}
