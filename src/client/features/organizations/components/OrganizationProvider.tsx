import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { getSelectedOrganizationId, storeSelectedOrganizationId } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';
import { useOrganizations } from '../api/organizations';
import { OrganizationContext, type OrganizationContextValue } from '../organizationContext';
import { pickOrganization, uniqueById } from '../selection';

export function OrganizationProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isPending, isError, refetch } = useOrganizations();
  const [chosenId, setChosenId] = useState(getSelectedOrganizationId);

  const organizations = useMemo(() => uniqueById(data ?? []), [data]);
  const current = pickOrganization(organizations, chosenId);

  // Remember the fallback choice too, so the x-organization-id header always names a real membership.
  useEffect(() => {
    if (current && current.id !== getSelectedOrganizationId()) storeSelectedOrganizationId(current.id);
  }, [current]);

  const select = useCallback(
    (organizationId: string) => {
      storeSelectedOrganizationId(organizationId);
      setChosenId(organizationId);
      // cached data of an organization visited before is refetched, not shown stale
      void queryClient.invalidateQueries({ queryKey: orgQueryKey(organizationId) });
    },
    [queryClient],
  );

  const value = useMemo<OrganizationContextValue>(
    () => ({
      organizations,
      current,
      isLoading: isPending,
      loadFailed: isError && data === undefined,
      retry: () => void refetch(),
      select,
    }),
    [organizations, current, isPending, isError, data, refetch, select],
  );

  return <OrganizationContext.Provider value={value}>{children}</OrganizationContext.Provider>;
}
