import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ExpectedPackageList } from '@contract';
import { portalExpectedQueryKey } from './keys';
import { portalRequest } from './portalRequest';

/** GET /api/portal/expected: the tracking numbers the recipient expects (decision 033). */
export function fetchExpectedPackages() {
  return portalRequest<ExpectedPackageList>('GET', '/api/portal/expected');
}

export const expectedPackagesQuery = queryOptions({ queryKey: portalExpectedQueryKey, queryFn: fetchExpectedPackages });

export function useExpectedPackages() {
  return useQuery(expectedPackagesQuery);
}
