import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { LiveEventKind } from '../../../contract/live';
import {
  analyticsQueryKey,
  dashboardStatsQueryKey,
  dashboardTrendsQueryKey,
  historyQueryKey,
  locationsQueryKey,
  mailItemsQueryKey,
  mailroomsQueryKey,
  membersQueryKey,
  organizationsQueryKey,
  recentActivityQueryKey,
  recipientSummaryQueryKey,
  recipientsQueryKey,
} from './keys';

/*
 * What a change makes stale: one map, read by this desk's saves (invalidateMailItems and friends)
 * and by the live stream when another desk's change is announced (liveEvents.ts), so a screen
 * refreshes the same whether the change was made here or there (issue 42).
 */

/** The screens that count or list mail: dashboard cards, their trends, Recent Mail Activity (spec §7), Reports. */
function countsOf(organizationId: string): QueryKey[] {
  return [
    dashboardStatsQueryKey(organizationId),
    dashboardTrendsQueryKey(organizationId),
    recentActivityQueryKey(organizationId),
    analyticsQueryKey(organizationId),
  ];
}

/** The query keys a change of `kind` makes stale in `organizationId`. */
export function staleAfter(organizationId: string, kind: LiveEventKind): QueryKey[] {
  switch (kind) {
    case 'mail-items':
      // Every mail list, summary and timeline (one key), History, the counts, and the locations
      // (they show how many items they hold).
      return [
        mailItemsQueryKey(organizationId),
        historyQueryKey(organizationId),
        ...countsOf(organizationId),
        locationsQueryKey(organizationId),
      ];
    case 'recipients':
      // Their lists and the Total Recipients card; the mail lists, History and the counts show
      // their names (and the dashboard counts the active ones).
      return [
        recipientsQueryKey(organizationId),
        recipientSummaryQueryKey(organizationId),
        mailItemsQueryKey(organizationId),
        historyQueryKey(organizationId),
        ...countsOf(organizationId),
      ];
    case 'storage':
      // A mailroom shows its location count; the mail lists show where an item is kept.
      return [mailroomsQueryKey(organizationId), locationsQueryKey(organizationId), mailItemsQueryKey(organizationId)];
    case 'members':
      // The list of one's organizations carries one's own role there.
      return [membersQueryKey(organizationId), organizationsQueryKey];
  }
}

/** Marks stale (and refetches what is on screen) everything a change of `kind` shows on. */
export function invalidateAfter(queryClient: QueryClient, organizationId: string, kind: LiveEventKind) {
  return Promise.all(staleAfter(organizationId, kind).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** After mail is logged, updated, handed over or deleted (spec §7). */
export function invalidateMailItems(queryClient: QueryClient, organizationId: string) {
  return invalidateAfter(queryClient, organizationId, 'mail-items');
}
