import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Location } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateMailrooms } from './invalidateMailrooms';
import type { LocationBody } from './locations';

export function updateLocation(organizationId: string, id: string, changes: Partial<LocationBody>) {
  return apiRequest<Location>('PUT', `/api/mailroom-locations/${id}`, changes, { organizationId });
}

/** Admins only. */
export function useUpdateLocation(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: Partial<LocationBody> }) =>
      updateLocation(organizationId, id, changes),
    onSuccess: () => invalidateMailrooms(queryClient, organizationId),
  });
}
