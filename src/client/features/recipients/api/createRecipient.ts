import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Recipient, RecipientBody } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateRecipients } from './invalidateRecipients';

export function createRecipient(organizationId: string, body: RecipientBody) {
  return apiRequest<Recipient>('POST', '/api/recipients', body, { organizationId });
}

/** Creates a recipient (members and admins); the reply, with its id, goes back to the caller. */
export function useCreateRecipient(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecipientBody) => createRecipient(organizationId, body),
    onSuccess: () => invalidateRecipients(queryClient, organizationId),
  });
}
