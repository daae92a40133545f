import { HISTORY_RANGES } from '@contract';
import { useCallback } from 'react';
import { useSearchParams } from 'wouter';
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
  const [params, setParams] = useSearchParams();
  const range = params.get('range');
  const page = Number(params.get('page') ?? '1');
  const current: HistoryParams = {
    filter: {
      range: isRange(range) ? range : DEFAULT_RANGE,
      type: params.get('type') || undefined,
      status: params.get('status') || undefined,
      search: params.get('q')?.trim() || undefined,
    },
    page: Number.isInteger(page) && page > 1 ? page - 1 : 0,
  };

  /** Typing replaces the history entry; choosing a filter or a page adds one. */
  const update = useCallback(
    (change: Change, options: { replace?: boolean } = {}) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          const set = (key: string, value: string | undefined, fallback = '') => {
            if (value === undefined) return;
            if (value.trim() === '' || value === fallback) next.delete(key);
            else next.set(key, value.trim());
          };
          set('range', change.range, DEFAULT_RANGE);
          set('type', change.type);
          set('status', change.status);
          set('q', change.search);
          // a filter change starts again on page 1
          const page = change.page ?? 0;
          if (page > 0) next.set('page', String(page + 1));
          else next.delete('page');
          return next;
        },
        { replace: options.replace },
      ),
    [setParams],
  );

  return { ...current, update };
}
