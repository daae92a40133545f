import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LogWithoutRecipientBody, MailItem, NeedsRecipientCount, NeedsRecipientItem } from '@contract';
import { apiRequest, fetchPage, withQuery, type Page } from '@/lib/api';
import { mailItemsQueryKey } from '@/lib/resources/keys';
import { invalidateMailItems } from './invalidateMailItems';

/*
 * Items logged without a recipient (decision 041). Under the mail items key, so logging, resolving
 * or deleting any item refreshes the list and the navigation badge with the other mail lists.
 */

const needsRecipientKey = (organizationId: string) =>
  [...mailItemsQueryKey(organizationId), 'needs-recipient'] as const;

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

/** The navigation badge: checked again every minute, as other desks log items too. */
export function useNeedsRecipientCount(organizationId: string | undefined) {
  return useQuery({
    queryKey: [...needsRecipientKey(organizationId ?? ''), 'count'] as const,
    queryFn: () =>
      apiRequest<NeedsRecipientCount>('GET', '/api/mail-items/needs-recipient/count', undefined, {
        organizationId: organizationId!,
      }),
    enabled: Boolean(organizationId),
    refetchInterval: 60_000,
  });
}

export function useLogWithoutRecipient(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LogWithoutRecipientBody) =>
      apiRequest<MailItem>('POST', '/api/mail-items/needs-recipient', body, { organizationId }),
    onSuccess: () => invalidateMailItems(queryClient, organizationId),
  });
}

/** Gives the item its recipient: it joins Pending Pickups and the recipient is notified. */
export function useResolveRecipient(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, recipientId }: { id: string; recipientId: string }) =>
      apiRequest<MailItem>('POST', `/api/mail-items/${id}/resolve`, { recipientId }, { organizationId }),
    onSuccess: () => invalidateMailItems(queryClient, organizationId),
  });
}
