import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SuperAdminDomain } from '@contract';
import { apiRequest } from '@/lib/api';

/** Kept under the console's root key, so the console's invalidations reach it too. */
const domainsKey = (organizationId: string) => ['super-admin', 'organizations', organizationId, 'domains'] as const;

/** One organization's email domains, pending and verified (decision 058). */
export function usePlatformOrganizationDomains(organizationId: string) {
  return useQuery({
    queryKey: domainsKey(organizationId),
    queryFn: () =>
      apiRequest<SuperAdminDomain[]>('GET', `/api/super-admin/organizations/${organizationId}/domains`, undefined, {
        organizationId: false,
      }),
  });
}

/** Verifies a pending domain without its DNS record; 409 when another organization holds it verified. */
export function useVerifyPlatformDomain(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<SuperAdminDomain>(
        'POST',
        `/api/super-admin/organizations/${organizationId}/domains/${id}/verify`,
        undefined,
        { organizationId: false },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainsKey(organizationId) }),
  });
}
