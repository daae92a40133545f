import type { QueryClient } from '@tanstack/react-query';
import { invalidateDashboard } from '@/features/dashboard/api/invalidateDashboard';
import { mailItemsQueryKey } from '@/features/mail-items/api/mailItems';
import { recipientsQueryKey } from './recipients';
import { recipientSummaryQueryKey } from './recipientSummary';

/**
 * After any recipient change: every recipient list, the summary card and the dashboard stats
 * (spec §7), plus the lists that show a recipient's name beside their mail (recent activity, mail items).
 */
export function invalidateRecipients(queryClient: QueryClient, organizationId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: recipientsQueryKey(organizationId) }),
    queryClient.invalidateQueries({ queryKey: recipientSummaryQueryKey(organizationId) }),
    invalidateDashboard(queryClient, organizationId),
    queryClient.invalidateQueries({ queryKey: mailItemsQueryKey(organizationId) }),
  ]);
}
