import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MailItem, UpdateMailItemBody } from '@contract';
import { ApiError, apiRequest } from '@/lib/api';
import { invalidateMailItems } from '@/lib/resources/invalidate';

/**
 * Sent with the revision the clerk saw (If-Match, decision 044): the server refuses it with 409
 * and the item as it is now when someone else changed it meanwhile, rather than undo their change.
 */
export function updateMailItem(organizationId: string, id: string, body: UpdateMailItemBody, revision: number) {
  return apiRequest<MailItem>('PUT', `/api/mail-items/${id}`, body, {
    organizationId,
    headers: { 'If-Match': `"${revision}"` },
  });
}

export interface UpdateMailItemVariables {
  id: string;
  body: UpdateMailItemBody;
  /** The item's revision when the clerk saw it: every screen sends it. */
  revision: number;
}

/**
 * Changed fields only: `{status: 'notified'}`, `{status: 'delivered', collectorName}` or the edit
 * dialog's fields. The server sets notifiedAt, deliveredAt and the staff member who handed it over.
 */
export function useUpdateMailItem(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, revision }: UpdateMailItemVariables) => updateMailItem(organizationId, id, body, revision),
    onSuccess: () => invalidateMailItems(queryClient, organizationId),
    // A conflict means the lists show an older item: they refresh, whatever the clerk chooses.
    onError: () => invalidateMailItems(queryClient, organizationId),
  });
}

/** The item as it is now, when the server refused an edit made from an older revision (409). */
export function conflictOf(err: unknown): MailItem | null {
  if (!(err instanceof ApiError) || err.status !== 409 || err.reply?.code !== 'revision_conflict') return null;
  return (err.reply as unknown as { current?: MailItem }).current ?? null;
}
