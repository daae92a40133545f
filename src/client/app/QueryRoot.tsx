import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { currentUserQuery, useCurrentUser } from '@/lib/resources/currentUser';
import { keptOrganizations } from '@/lib/offlineSession';
import { queryClient } from '@/lib/queryClient';
import { organizationsQueryKey } from '@/lib/resources/keys';
import { sessionUser, setSessionUser, startedOffline } from './session';

/** Starts the current-user query from the session check, so nothing asks the server twice. */
function seedCurrentUser() {
  const known = sessionUser();
  if (known !== undefined && queryClient.getQueryData(currentUserQuery.queryKey) === undefined) {
    queryClient.setQueryData(currentUserQuery.queryKey, known);
  }
  // Started offline from the kept user: the shell draws from the kept organizations instead of
  // waiting (a paused query) for the network; the list is fetched again once it is back.
  if (known && startedOffline() && queryClient.getQueryData(organizationsQueryKey) === undefined) {
    const organizations = keptOrganizations(known.id);
    if (organizations) queryClient.setQueryData(organizationsQueryKey, organizations);
  }
}

/**
 * Keeps the router's session in step with the current-user query: a refetch that answers null
 * (the session ended) signs the app out, an account change renames the person everywhere.
 */
function SessionSync() {
  const { data } = useCurrentUser();
  useEffect(() => {
    if (data !== undefined) setSessionUser(data);
  }, [data]);
  return null;
}

/** TanStack Query for everything below: the one client of lib/queryClient, shared by every chunk. */
export function QueryRoot({ children }: { children: ReactNode }) {
  useState(seedCurrentUser); // once, before the children's first queries
  return (
    <QueryClientProvider client={queryClient}>
      <SessionSync />
      {children}
    </QueryClientProvider>
  );
}

/** A screen inside QueryRoot (the signed-out forms load it with their own chunk). */
export function withQueryRoot<P extends object>(Screen: ComponentType<P>): ComponentType<P> {
  function WithQueryRoot(props: P) {
    return (
      <QueryRoot>
        <Screen {...props} />
      </QueryRoot>
    );
  }
  return WithQueryRoot;
}
