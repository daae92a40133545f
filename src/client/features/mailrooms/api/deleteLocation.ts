import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LOCATION_NOT_EMPTY, LOCATION_NOT_EMPTY_HINT } from '@contract';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiRequest } from '@/lib/api';
import { toastFailure } from '@/lib/useErrorToast';
import { invalidateMailrooms } from './invalidateMailrooms';

export function deleteLocation(organizationId: string, id: string) {
  return apiRequest<void>('DELETE', `/api/mailroom-locations/${id}`, undefined, { organizationId });
}

/** Admins only. A location that still holds mail answers 409. */
export function useDeleteLocation(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteLocation(organizationId, id),
    onSuccess: () => invalidateMailrooms(queryClient, organizationId),
  });
}

/** Spec §8: a non-empty location gets 'Cannot delete storage location' with the guidance to move items first. */
export function toastDeleteLocationFailure(err: unknown) {
  if (err instanceof ApiError && err.status === 409) {
    toast({ title: LOCATION_NOT_EMPTY, description: LOCATION_NOT_EMPTY_HINT, variant: 'destructive' });
  } else {
    toastFailure(LOCATION_NOT_EMPTY, err);
  }
}
