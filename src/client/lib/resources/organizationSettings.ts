import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrganizationSettings } from '@contract';
import { apiRequest } from '../api';
import { organizationSettingsQueryKey } from './keys';

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

/** Spec §7: one list key or one preference at a time. */
export type OrganizationSettingsChanges = Partial<OrganizationSettings>;

export function updateOrganizationSettings(organizationId: string, changes: OrganizationSettingsChanges) {
  return apiRequest<OrganizationSettings>('PUT', `/api/organization-settings/${organizationId}`, changes, {
    organizationId,
  });
}

/** Admins only. Shows the change at once and puts it back if the server refuses it. */
export function useUpdateOrganizationSettings(organizationId: string) {
  const queryClient = useQueryClient();
  const queryKey = organizationSettingsQueryKey(organizationId);
  return useMutation({
    mutationFn: (changes: OrganizationSettingsChanges) => updateOrganizationSettings(organizationId, changes),
    onMutate: async (changes) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData<OrganizationSettings>(queryKey);
      if (previous) queryClient.setQueryData<OrganizationSettings>(queryKey, { ...previous, ...changes });
      return { previous };
    },
    onError: (_err, _changes, context) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
