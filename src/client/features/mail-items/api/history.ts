import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { HISTORY_RANGES, HistoryStats, MailItem } from '@contract';
import { apiRequest, fetchPage, withQuery, type Page } from '@/lib/api';
import { historyQueryKey } from '@/lib/resources/keys';

/** Spec §9 "History ranges": days counted back in the organization's timezone; '0' is all time. */
export type HistoryRange = (typeof HISTORY_RANGES)[number];

/** The filter shared by the list, the stat cards and the export (contract HistoryFilter). */
export interface HistoryFilterParams {
  range: HistoryRange;
  type?: string;
  status?: string;
  /** Tracking number, sender, recipient name or collector. */
  search?: string;
}

export const HISTORY_PAGE_SIZE = 25;

/** The filter as query parameters (blank values left out). */
export function historyQuery(filter: HistoryFilterParams) {
  return { range: filter.range, type: filter.type, status: filter.status, search: filter.search?.trim() };
}

export function historyListQuery(organizationId: string, filter: HistoryFilterParams, page: number) {
  const params = { ...historyQuery(filter), limit: HISTORY_PAGE_SIZE, offset: page * HISTORY_PAGE_SIZE };
  return queryOptions({
    queryKey: [...historyQueryKey(organizationId), 'list', params] as const,
    queryFn: (): Promise<Page<MailItem>> => fetchPage<MailItem>(withQuery('/api/history', params), organizationId),
  });
}

export function historyStatsQuery(organizationId: string, filter: HistoryFilterParams) {
  const params = historyQuery(filter);
  return queryOptions({
    queryKey: [...historyQueryKey(organizationId), 'stats', params] as const,
    queryFn: () =>
      apiRequest<HistoryStats>('GET', withQuery('/api/history/stats', params), undefined, { organizationId }),
  });
}

/*
 * History is an audit trail of changes made elsewhere (intake, hand-over, edits), so nothing
 * invalidates it: each visit to the screen fetches it anew instead.
 */

/** One page of the filtered history, newest first; the previous page stays while the next loads. */
export function useHistoryList(organizationId: string, filter: HistoryFilterParams, page: number) {
  return useQuery({
    ...historyListQuery(organizationId, filter, page),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}

/** The four stat cards over the whole filter, computed by the server. */
export function useHistoryStats(organizationId: string, filter: HistoryFilterParams) {
  return useQuery({
    ...historyStatsQuery(organizationId, filter),
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
}
