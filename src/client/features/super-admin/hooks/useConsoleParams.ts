import { PLATFORM_LOG_KINDS, type PlatformLogKind } from '@contract';
import { useCallback, useEffect } from 'react';
import { usePagedSearchParams } from '@/lib/usePagedSearchParams';
import { PLATFORM_PAGE_SIZE } from '../api/platform';

export const CONSOLE_TABS = ['organizations', 'users', 'logs'] as const;
export type ConsoleTab = (typeof CONSOLE_TABS)[number];

const isTab = (value: string | null): value is ConsoleTab =>
  (CONSOLE_TABS as readonly (string | null)[]).includes(value);
const isKind = (value: string | null): value is PlatformLogKind =>
  (PLATFORM_LOG_KINDS as readonly (string | null)[]).includes(value);

export interface ConsoleParams {
  tab: ConsoleTab;
  /** The search box, trimmed; '' for none. */
  search: string;
  /** System Logs' kind filter; undefined for all kinds. */
  kind: PlatformLogKind | undefined;
  /** Zero-based page of the tab's list. */
  page: number;
}

type Change = Partial<{ tab: ConsoleTab; search: string; kind: PlatformLogKind | 'all'; page: number }>;

/**
 * The console's view lives in the query string (tab, q, kind, page), like History's, so a view
 * can be shared and survives a reload; defaults are left out. Changing the tab, the search or the
 * kind goes back to the first page.
 */
export function useConsoleParams() {
  const { params, page, update: write } = usePagedSearchParams();
  const tab = params.get('tab');
  const kind = params.get('kind');
  const current: ConsoleParams = {
    tab: isTab(tab) ? tab : 'organizations',
    search: params.get('q')?.trim() ?? '',
    kind: isKind(kind) ? kind : undefined,
    page,
  };

  /** Typing replaces the history entry; choosing a tab, a kind or a page adds one. */
  const update = useCallback(
    (change: Change, options: { replace?: boolean } = {}) =>
      write(
        (next) => {
          if (change.tab !== undefined) {
            if (change.tab === 'organizations') next.delete('tab');
            else next.set('tab', change.tab);
            // the kind belongs to System Logs
            if (change.tab !== 'logs') next.delete('kind');
          }
          if (change.search !== undefined) {
            if (change.search.trim()) next.set('q', change.search.trim());
            else next.delete('q');
          }
          if (change.kind !== undefined) {
            if (change.kind === 'all') next.delete('kind');
            else next.set('kind', change.kind);
          }
        },
        change.page,
        options,
      ),
    [write],
  );

  return { ...current, update };
}

/**
 * A shared link or a narrower result can leave the page past the end of the list: show its last
 * page instead (as History does).
 */
export function useLastPageWhenPastEnd(
  list: { data?: { total: number }; isPlaceholderData: boolean },
  page: number,
  onPage: (page: number, options?: { replace?: boolean }) => void,
) {
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(0, Math.ceil(total / PLATFORM_PAGE_SIZE) - 1);
  const pastEnd = Boolean(list.data) && !list.isPlaceholderData && page > lastPage;
  useEffect(() => {
    if (pastEnd) onPage(lastPage, { replace: true });
  }, [pastEnd, lastPage, onPage]);
}
