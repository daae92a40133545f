import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Recipient, RecipientBody } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateRecipients } from './invalidateRecipients';

/** PUT takes any subset of the fields, e.g. only `{isActive}`. */
export type RecipientChanges = Partial<RecipientBody>;

export function updateRecipient(organizationId: string, id: string, changes: RecipientChanges) {
  return apiRequest<Recipient>('PUT', `/api/recipients/${id}`, changes, { organizationId });
}

export function useUpdateRecipient(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: RecipientChanges }) =>
      updateRecipient(organizationId, id, changes),
    onSuccess: () => invalidateRecipients(queryClient, organizationId),
  });
}
