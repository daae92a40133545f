import { HISTORY_RANGES } from '@contract';
import { useCallback } from 'react';
import { usePagedSearchParams } from '@/lib/usePagedSearchParams';
import type { HistoryFilterParams, HistoryRange } from '../api/history';

export const DEFAULT_RANGE: HistoryRange = '7';

function isRange(value: string | null): value is HistoryRange {
  return (HISTORY_RANGES as readonly (string | null)[]).includes(value);
}

export interface HistoryParams {
  filter: HistoryFilterParams;
  /** Zero-based page of the table. */
  page: number;
}

type Change = Partial<{ range: HistoryRange; type: string; status: string; search: string; page: number }>;

/**
 * The History view lives in the query string (range, type, status, q, page) so a view can be
 * shared and survives a reload; defaults are left out. Any filter change returns to page 1.
 */
export function useHistoryParams() {
  const { params, page, update: write } = usePagedSearchParams();
  const range = params.get('range');
  const current: HistoryParams = {
    filter: {
      range: isRange(range) ? range : DEFAULT_RANGE,
      type: params.get('type') || undefined,
      status: params.get('status') || undefined,
      search: params.get('q')?.trim() || undefined,
    },
    page,
  };

  /** Typing replaces the history entry; choosing a filter or a page adds one. */
  const update = useCallback(
    (change: Change, options: { replace?: boolean } = {}) =>
      write(
        (next) => {
          const set = (key: string, value: string | undefined, fallback = '') => {
            if (value === undefined) return;
            if (value.trim() === '' || value === fallback) next.delete(key);
            else next.set(key, value.trim());
          };
          set('range', change.range, DEFAULT_RANGE);
          set('type', change.type);
          set('status', change.status);
          set('q', change.search);
        },
        // a filter change starts again on page 1
        change.page,
        options,
      ),
    [write],
  );

  return { ...current, update };
}
