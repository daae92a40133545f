import { useCallback } from 'react';
import { useSearchParams } from 'wouter';

/**
 * A paged view that lives in the query string (History, the super admin console): the page is
 * `page`, one-based there and left out for the first; each screen writes its own filters.
 */
export function usePagedSearchParams() {
  const [params, setParams] = useSearchParams();
  const pageParam = Number(params.get('page') ?? '1');
  /** Zero-based. */
  const page = Number.isInteger(pageParam) && pageParam > 1 ? pageParam - 1 : 0;

  /**
   * Writes the screen's filters with `write`, then the page (none: the first, where a filter
   * change starts again); `replace` replaces the history entry instead of adding one.
   */
  const update = useCallback(
    (write: (next: URLSearchParams) => void, nextPage: number | undefined, options: { replace?: boolean }) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          write(next);
          const page = nextPage ?? 0;
          if (page > 0) next.set('page', String(page + 1));
          else next.delete('page');
          return next;
        },
        { replace: options.replace },
      ),
    [setParams],
  );

  return { params, page, update };
}
