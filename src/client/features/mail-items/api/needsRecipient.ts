import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MailItem, NeedsRecipientItem, ResolveRecipientBody } from '@contract';
import { apiRequest, fetchPage, withQuery, type Page } from '@/lib/api';
import { invalidateMailItems } from '@/lib/resources/invalidate';
import { needsRecipientKey } from './needsRecipientCount';

/*
 * Items logged without a recipient (decision 041). Under the mail items key, so logging, resolving
 * or deleting any item refreshes the list and the navigation badge with the other mail lists.
 */

/** The server's page size. */
export const NEEDS_RECIPIENT_PAGE_SIZE = 50;

export function needsRecipientQuery(organizationId: string, offset: number) {
  return queryOptions({
    queryKey: [...needsRecipientKey(organizationId), 'list', offset] as const,
    queryFn: (): Promise<Page<NeedsRecipientItem>> =>
      fetchPage<NeedsRecipientItem>(withQuery('/api/mail-items/needs-recipient', { offset }), organizationId),
  });
}

export function useNeedsRecipient(organizationId: string, offset: number) {
  return useQuery({ ...needsRecipientQuery(organizationId, offset), placeholderData: keepPreviousData });
}

/** Gives the item its recipient: it joins Pending Pickups and the recipient is notified. */
export function useResolveRecipient(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & ResolveRecipientBody) =>
      apiRequest<MailItem>('POST', `/api/mail-items/${id}/resolve`, body, { organizationId }),
    onSuccess: () => invalidateMailItems(queryClient, organizationId),
  });
}
