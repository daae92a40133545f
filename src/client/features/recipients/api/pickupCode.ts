import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Proxy, RecipientPickupCode } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

const codeKey = (organizationId: string, recipientId: string) =>
  orgQueryKey(organizationId, `/api/recipients/${recipientId}/pickup-code`);
const proxiesKey = (organizationId: string, recipientId: string) =>
  orgQueryKey(organizationId, `/api/recipients/${recipientId}/proxies`);

/** A recipient's pickup code and its QR (decision 031). */
export function usePickupCode(organizationId: string, recipientId: string) {
  return useQuery({
    queryKey: codeKey(organizationId, recipientId),
    queryFn: () =>
      apiRequest<RecipientPickupCode>('GET', `/api/recipients/${recipientId}/pickup-code`, undefined, {
        organizationId,
      }),
  });
}

/** A new code; the old one stops working at once. */
export function useRegeneratePickupCode(organizationId: string, recipientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<RecipientPickupCode>('POST', `/api/recipients/${recipientId}/pickup-code`, undefined, {
        organizationId,
      }),
    onSuccess: (code) => queryClient.setQueryData(codeKey(organizationId, recipientId), code),
  });
}

/** The people the recipient allows to collect for them. */
export function useProxies(organizationId: string, recipientId: string) {
  return useQuery({
    queryKey: proxiesKey(organizationId, recipientId),
    queryFn: () => apiRequest<Proxy[]>('GET', `/api/recipients/${recipientId}/proxies`, undefined, { organizationId }),
  });
}

export function useAddProxy(organizationId: string, recipientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiRequest<Proxy>('POST', `/api/recipients/${recipientId}/proxies`, { name }, { organizationId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proxiesKey(organizationId, recipientId) }),
  });
}

export function useRemoveProxy(organizationId: string, recipientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (proxyId: string) =>
      apiRequest<void>('DELETE', `/api/recipients/${recipientId}/proxies/${proxyId}`, undefined, { organizationId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proxiesKey(organizationId, recipientId) }),
  });
}
