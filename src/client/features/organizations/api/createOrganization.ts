import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateOrganizationBody, MyOrganization } from '@contract';
import { apiRequest } from '@/lib/api';
import { organizationsQueryKey } from './organizations';

/** Creates an organization (the caller becomes its admin) in the browser's timezone. */
export function createOrganization(body: CreateOrganizationBody) {
  return apiRequest<MyOrganization>('POST', '/api/organizations', {
    ...body,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
}

/** Adds the new organization to the cached list at once, then refreshes the list. */
export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: async (created) => {
      queryClient.setQueryData<MyOrganization[]>(organizationsQueryKey, (list = []) => [...list, created]);
      await queryClient.invalidateQueries({ queryKey: organizationsQueryKey });
    },
  });
}
