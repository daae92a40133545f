import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Payment } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function paymentsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/billing/payments');
}

/** Payments and failed charges, newest first (admins). */
export function fetchPayments(organizationId: string) {
  return apiRequest<Payment[]>('GET', '/api/billing/payments', undefined, { organizationId });
}

/** Refreshed on focus (a payment made in another tab) and after every purchase. */
export function paymentsQuery(organizationId: string) {
  return queryOptions({
    queryKey: paymentsQueryKey(organizationId),
    queryFn: () => fetchPayments(organizationId),
    refetchOnWindowFocus: true,
    refetchOnMount: 'always',
  });
}

export function usePayments(organizationId: string, enabled = true) {
  return useQuery({ ...paymentsQuery(organizationId), enabled });
}
