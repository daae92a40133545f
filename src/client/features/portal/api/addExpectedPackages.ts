import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddExpectedPackagesBody, ExpectedPackageList } from '@contract';
import { portalExpectedQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** POST /api/portal/expected: a number, or a pasted shipping email; answers the packages it added. */
export function addExpectedPackages(body: AddExpectedPackagesBody) {
  return portalRequest<ExpectedPackageList>('POST', '/api/portal/expected', body);
}

/** The list is fetched again whatever the answer (a refusal may follow a change made elsewhere). */
export function useAddExpectedPackages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addExpectedPackages,
    onSettled: () => queryClient.invalidateQueries({ queryKey: portalExpectedQueryKey }),
  });
}
