import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimDomainBody, OrganizationDomain } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateDomains } from './domains';

export function claimDomain(organizationId: string, body: ClaimDomainBody) {
  return apiRequest<OrganizationDomain>('POST', '/api/domains', body, { organizationId });
}

/** Admins only; 409 when this organization has it, or another organization verified it. */
export function useClaimDomain(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClaimDomainBody) => claimDomain(organizationId, body),
    onSuccess: () => invalidateDomains(queryClient, organizationId),
  });
}
