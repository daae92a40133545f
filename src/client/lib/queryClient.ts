import { QueryClient } from '@tanstack/react-query';

/** Spec §7 "Request defaults": data never goes stale by itself, no focus refetch, no retries. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    },
    mutations: { retry: false },
  },
});

/**
 * The key of a query that acts on one organization (sent in the x-organization-id header).
 * Every such key starts with ['org', organizationId], so switching organizations fetches anew
 * and `invalidateQueries({queryKey: ['org', id]})` reaches all of one organization's data.
 */
export function orgQueryKey<const Rest extends readonly unknown[]>(organizationId: string, ...rest: Rest) {
  return ['org', organizationId, ...rest] as const;
}
