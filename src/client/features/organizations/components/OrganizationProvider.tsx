import { ORGANIZATION_NOT_FOUND } from '@contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from '@/components/ui/use-toast';
import { ApiError, getSelectedOrganizationId, storeSelectedOrganizationId } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';
import { setDisplayTimeZone } from '@/lib/i18n/language';
import { useOrganizations } from '@/lib/resources/organizations';
import { OrganizationContext, type OrganizationContextValue } from '@/lib/currentOrganization';
import { pickOrganization, uniqueById } from '../selection';

/**
 * The server's answers when a call names an organization the caller no longer belongs to: 403 for
 * the x-organization-id header, 404 for /api/organizations/{id}/… (decision 003).
 */
function isNotMember(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const message = error.reply?.message ?? '';
  return (
    (error.status === 403 && /not a member/i.test(message)) ||
    (error.status === 404 && message === ORGANIZATION_NOT_FOUND)
  );
}

export function OrganizationProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isPending, isError, refetch } = useOrganizations();
  const [chosenId, setChosenId] = useState(getSelectedOrganizationId);

  const organizations = useMemo(() => uniqueById(data ?? []), [data]);
  const current = pickOrganization(organizations, chosenId);

  // The screens write dates and times in the organization's time zone; before the first paint.
  const timeZone = current?.timezone;
  useLayoutEffect(() => {
    setDisplayTimeZone(timeZone);
    return () => setDisplayTimeZone(undefined);
  }, [timeZone]);

  // Remember the fallback choice too, so the x-organization-id header always names a real membership.
  useEffect(() => {
    if (current && current.id !== getSelectedOrganizationId()) storeSelectedOrganizationId(current.id);
  }, [current]);

  // Any call refused with "not a member" means the list is out of date (removed by an admin): reload it.
  useEffect(() => {
    const onError = (error: unknown) => {
      if (isNotMember(error)) void refetch();
    };
    const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    return () => {
      unsubscribeQueries();
      unsubscribeMutations();
    };
  }, [queryClient, refetch]);

  // The organization on screen vanished from a fresh list: the person was removed from it. Say so.
  const shown = useRef<{ id: string; name: string } | null>(null);
  useEffect(() => {
    if (!data) return;
    const previous = shown.current;
    if (previous && !organizations.some((org) => org.id === previous.id)) {
      queryClient.removeQueries({ queryKey: orgQueryKey(previous.id) });
      toast({
        title: `You no longer have access to ${previous.name}`,
        description: current
          ? `An admin removed you from ${previous.name}. You are now in ${current.name}.`
          : `An admin removed you from ${previous.name}. Ask an admin to invite you again, or create your own organization.`,
        variant: 'destructive',
      });
    }
    shown.current = current ? { id: current.id, name: current.name } : null;
  }, [data, organizations, current, queryClient]);

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
