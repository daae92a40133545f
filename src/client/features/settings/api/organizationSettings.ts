import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationSettings } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';

export function organizationSettingsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/organization-settings');
}

export function fetchOrganizationSettings(organizationId: string) {
  return apiRequest<OrganizationSettings>('GET', `/api/organization-settings/${organizationId}`, undefined, {
    organizationId,
  });
}

/** Package types, sizes, couriers, statuses and the three preferences; the intake form reads them too. */
export function organizationSettingsQuery(organizationId: string) {
  return queryOptions({
    queryKey: organizationSettingsQueryKey(organizationId),
    queryFn: () => fetchOrganizationSettings(organizationId),
  });
}

export function useOrganizationSettings(organizationId: string | undefined) {
  return useQuery({ ...organizationSettingsQuery(organizationId ?? ''), enabled: Boolean(organizationId) });
}
