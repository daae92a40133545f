import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrganizationDomain } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateDomains } from './domains';

export function verifyDomain(organizationId: string, id: string) {
  return apiRequest<OrganizationDomain>('POST', `/api/domains/${id}/verify`, undefined, { organizationId });
}

/** Admins only: the server looks the TXT record up; 422 says why it is not proved yet, 429 to wait. */
export function useVerifyDomain(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => verifyDomain(organizationId, id),
    onSuccess: () => invalidateDomains(queryClient, organizationId),
  });
}
