import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@contract';
import { getOrNull } from '../api';
import { currentUserQueryKey } from './keys';

/** The signed-in user, or null when signed out (401 is not an error). */
export function fetchCurrentUser() {
  return getOrNull<User>('/api/auth/user');
}

/** Spec §7: retried once after 500 ms, not on focus, refetched on mount, fresh for 10 s. */
export const currentUserQuery = queryOptions({
  queryKey: currentUserQueryKey,
  queryFn: fetchCurrentUser,
  retry: 1,
  retryDelay: 500,
  refetchOnWindowFocus: false,
  refetchOnMount: true,
  staleTime: 10_000,
});

export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

/** The current user, for components that only render once signed in. */
export function useSignedInUser(): User {
  const { data } = useCurrentUser();
  if (!data) throw new Error('useSignedInUser is only for signed-in screens');
  return data;
}
