import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DemoCheckout } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function demoCheckoutQueryKey(organizationId: string, id: string) {
  return orgQueryKey(organizationId, '/api/billing/demo-checkouts', id);
}

export function fetchDemoCheckout(organizationId: string, id: string) {
  return apiRequest<DemoCheckout>('GET', `/api/billing/demo-checkouts/${encodeURIComponent(id)}`, undefined, {
    organizationId,
  });
}

export function demoCheckoutQuery(organizationId: string, id: string) {
  return queryOptions({
    queryKey: demoCheckoutQueryKey(organizationId, id),
    queryFn: () => fetchDemoCheckout(organizationId, id),
    refetchOnMount: 'always',
  });
}

export function useDemoCheckout(organizationId: string, id: string) {
  return useQuery(demoCheckoutQuery(organizationId, id));
}
