import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { invalidateDomains } from './domains';

export function removeDomain(organizationId: string, id: string) {
  return apiRequest<void>('DELETE', `/api/domains/${id}`, undefined, { organizationId });
}

/** Admins only. */
export function useRemoveDomain(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => removeDomain(organizationId, id),
    onSuccess: () => invalidateDomains(queryClient, organizationId),
  });
}
