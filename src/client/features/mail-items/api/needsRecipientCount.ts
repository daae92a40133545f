import { useQuery } from '@tanstack/react-query';
import type { NeedsRecipientCount } from '@contract';
import { apiRequest } from '@/lib/api';
import { mailItemsQueryKey } from '@/lib/resources/keys';

/*
 * The sidebar's badge (decision 041), on every signed-in page: a file of its own, so the shell's
 * first load carries this call and not the list's and mutations' code.
 */

/** Under the mail items key: logging, resolving or deleting any item refreshes the list and the badge. */
export const needsRecipientKey = (organizationId: string) =>
  [...mailItemsQueryKey(organizationId), 'needs-recipient'] as const;

/** Other desks' items reach it through the live desk's stream (decision 043): under the mail items key, no polling. */
export function useNeedsRecipientCount(organizationId: string | undefined) {
  return useQuery({
    queryKey: [...needsRecipientKey(organizationId ?? ''), 'count'] as const,
    queryFn: () =>
      apiRequest<NeedsRecipientCount>('GET', '/api/mail-items/needs-recipient/count', undefined, {
        organizationId: organizationId!,
      }),
    enabled: Boolean(organizationId),
  });
}
