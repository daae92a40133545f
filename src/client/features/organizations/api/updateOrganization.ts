import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Organization, UpdateOrganizationBody } from '@contract';
import { apiRequest } from '@/lib/api';
import { organizationsQueryKey } from '@/lib/resources/keys';

export function updateOrganization(id: string, body: UpdateOrganizationBody) {
  return apiRequest<Organization>('PUT', `/api/organizations/${id}`, body, { organizationId: id });
}

/** Saves the organization, then refreshes the list and the organization's own query. */
export function useUpdateOrganization(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrganizationBody) => updateOrganization(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationsQueryKey }),
  });
}
