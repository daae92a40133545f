import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateMailItemBody, MailItem } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateMailItems } from '@/lib/resources/invalidate';

export function createMailItem(organizationId: string, body: CreateMailItemBody) {
  return apiRequest<MailItem>('POST', '/api/mail-items', body, { organizationId });
}

/** Logs a mail item (402 `package_limit` past the monthly cap), then refreshes everything it touches. */
export function useCreateMailItem(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMailItemBody) => createMailItem(organizationId, body),
    onSuccess: () => invalidateMailItems(queryClient, organizationId),
  });
}
