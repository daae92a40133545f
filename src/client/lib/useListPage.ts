import { useState } from 'react';

/** What a paged list's query answers: a page of rows and how many match in all. */
interface PagedAnswer {
  data?: { total: number };
  isFetching: boolean;
  isPlaceholderData: boolean;
}

/**
 * A list's page kept in state (0-based): the offset its query asks from, the props its Pager takes,
 * and a step back to the last page once an answer shows the page is past the end (its last rows
 * deleted or handed over elsewhere, or a narrower search).
 */
export function useListPage(pageSize: number) {
  const [page, setPage] = useState(0);
  return {
    page,
    setPage,
    offset: page * pageSize,
    /** The Pager's page, total and buttons; busy while a page is on its way unless told. */
    pagerFor: (list: PagedAnswer, busy = list.isFetching) => ({
      page,
      pageSize,
      total: list.data?.total ?? 0,
      busy,
      onPage: setPage,
    }),
    /** Called while rendering, with the answer the page was asked for (not a placeholder). */
    keepWithin(list: PagedAnswer) {
      const lastPage = Math.max(0, Math.ceil((list.data?.total ?? 0) / pageSize) - 1);
      if (list.data && !list.isPlaceholderData && page > lastPage) setPage(lastPage);
    },
  };
}
