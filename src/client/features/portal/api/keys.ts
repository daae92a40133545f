/**
 * The recipient's page's queries, in the app's query client (lib/queryClient) under their own
 * root: nothing of an organization's keys, and all of them dropped at once when the page is left
 * (components/PortalPage), so the next recipient in this tab never sees the last one's rows.
 */
export const portalQueryKey = ['portal'] as const;

export const portalMeQueryKey = [...portalQueryKey, 'me'] as const;

/** The waiting and the past items; a hold changes the waiting ones. */
export function portalItemsQueryKey(state?: 'waiting' | 'past') {
  return state ? ([...portalQueryKey, 'items', state] as const) : ([...portalQueryKey, 'items'] as const);
}

export const portalProxiesQueryKey = [...portalQueryKey, 'proxies'] as const;

export const portalExpectedQueryKey = [...portalQueryKey, 'expected'] as const;
