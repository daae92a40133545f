import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Location } from '@contract';
import { apiRequest } from '@/lib/api';
import { invalidateMailrooms } from './invalidateMailrooms';
import type { LocationBody } from './locations';

export function createLocation(organizationId: string, body: LocationBody) {
  return apiRequest<Location>('POST', '/api/mailroom-locations', body, { organizationId });
}

/** Admins only. */
export function useCreateLocation(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LocationBody) => createLocation(organizationId, body),
    onSuccess: () => invalidateMailrooms(queryClient, organizationId),
  });
}
