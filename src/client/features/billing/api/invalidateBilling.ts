import type { QueryClient } from '@tanstack/react-query';
import { organizationsQueryKey, auditLogQueryKey } from '@/lib/resources/keys';
import { activeLicensesQueryKey } from './activeLicenses';
import { licenseSummaryQueryKey } from './licenseSummary';
import { paymentsQueryKey } from './payments';

/**
 * After a purchase: the organizations (list and each one, so the banner, the notices and the seat
 * limits change at once), the billing summary, licences, payments and the activity log.
 */
export function invalidateBilling(queryClient: QueryClient, organizationId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: organizationsQueryKey }),
    queryClient.invalidateQueries({ queryKey: licenseSummaryQueryKey(organizationId) }),
    queryClient.invalidateQueries({ queryKey: activeLicensesQueryKey(organizationId) }),
    queryClient.invalidateQueries({ queryKey: paymentsQueryKey(organizationId) }),
    queryClient.invalidateQueries({ queryKey: auditLogQueryKey(organizationId) }),
  ]);
}
