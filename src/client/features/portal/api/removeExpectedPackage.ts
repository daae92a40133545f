import { useMutation, useQueryClient } from '@tanstack/react-query';
import { portalExpectedQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** DELETE /api/portal/expected/{id} */
export function removeExpectedPackage(id: string) {
  return portalRequest<void>('DELETE', `/api/portal/expected/${id}`);
}

/** The list is fetched again whatever the answer (one already gone is gone). */
export function useRemoveExpectedPackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeExpectedPackage,
    onSettled: () => queryClient.invalidateQueries({ queryKey: portalExpectedQueryKey }),
  });
}
