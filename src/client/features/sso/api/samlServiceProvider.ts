import { queryOptions, useQuery } from '@tanstack/react-query';
import { SAML_SERVICE_PROVIDER_PATH, type SamlServiceProvider } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

/** What the admin registers at their SAML provider for us (decision 062): entity id, ACS URL, metadata URL. */
export function useSamlServiceProvider(organizationId: string) {
  return useQuery(
    queryOptions({
      queryKey: orgQueryKey(organizationId, SAML_SERVICE_PROVIDER_PATH),
      queryFn: () => apiRequest<SamlServiceProvider>('GET', SAML_SERVICE_PROVIDER_PATH, undefined, { organizationId }),
      // The URLs follow APP_URL and the organization: they do not change while the page is open.
      staleTime: Infinity,
    }),
  );
}
