import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateOrganizationBody, MyOrganization } from '@contract';
import { apiRequest } from '@/lib/api';
import { organizationsQueryKey } from '@/lib/resources/keys';

/** Creates an organization (the caller becomes its admin) in the browser's timezone. */
export function createOrganization(body: CreateOrganizationBody) {
  return apiRequest<MyOrganization>('POST', '/api/organizations', {
    ...body,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
}

interface CreateOrganizationCallbacks {
  /** Runs once the new organization is in the cached list, before the list is refetched. */
  onCreated?: (organization: MyOrganization) => void;
  onFailed?: (error: unknown) => void;
}

/**
 * Adds the new organization to the cached list at once, then refreshes the list.
 *
 * The callbacks are the mutation's own, not `mutate`'s: the first organization replaces the
 * onboarding screen, and its form, the moment it joins the list, and TanStack Query drops the
 * callbacks given to `mutate` by an observer that has unmounted (the 'Success!' toast was lost so).
 */
export function useCreateOrganization({ onCreated, onFailed }: CreateOrganizationCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: async (created) => {
      queryClient.setQueryData<MyOrganization[]>(organizationsQueryKey, (list = []) => [...list, created]);
      onCreated?.(created);
      await queryClient.invalidateQueries({ queryKey: organizationsQueryKey });
    },
    onError: onFailed,
  });
}
