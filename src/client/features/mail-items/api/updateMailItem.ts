import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MailItem, UpdateMailItemBody } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateMailItems } from './invalidateMailItems';

export function updateMailItem(organizationId: string, id: string, body: UpdateMailItemBody) {
  return apiRequest<MailItem>('PUT', `/api/mail-items/${id}`, body, { organizationId });
}

export interface UpdateMailItemVariables {
  id: string;
  body: UpdateMailItemBody;
}

/**
 * Changed fields only: `{status: 'notified'}`, `{status: 'delivered', collectorName}` or the edit
 * dialog's fields. The server sets notifiedAt, deliveredAt and the staff member who handed it over.
 */
export function useUpdateMailItem(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: UpdateMailItemVariables) => updateMailItem(organizationId, id, body),
    onSuccess: () => invalidateMailItems(queryClient, organizationId),
  });
}
