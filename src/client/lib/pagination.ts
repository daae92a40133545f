/** What a pager shows for one page of a list: the rows on it and whether there is a page before or after. */
export interface PageRange {
  /** 1-based number of the first row on the page (0 when the list is empty). */
  first: number;
  /** 1-based number of the last row on the page. */
  last: number;
  pages: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

/** `page` is 0-based; a page past the end (rows deleted meanwhile) reads as the last one. */
export function pageRange(page: number, pageSize: number, total: number): PageRange {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(0, page), pages - 1);
  const first = total === 0 ? 0 : current * pageSize + 1;
  const last = Math.min(total, (current + 1) * pageSize);
  return { first, last, pages, hasPrevious: current > 0, hasNext: current < pages - 1 };
}

const count = new Intl.NumberFormat('en-US');

/** "Showing 26–50 of 1,204". */
export function pageRangeText(range: Pick<PageRange, 'first' | 'last'>, total: number): string {
  return `Showing ${count.format(range.first)}–${count.format(range.last)} of ${count.format(total)}`;
}
