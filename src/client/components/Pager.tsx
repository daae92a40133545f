import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { pageRange, pageRangeText } from '@/lib/pagination';

interface PagerProps {
  /** What the list holds, for the navigation's name: "Mail items" gives "Mail items pages". */
  label: string;
  /** 0-based. */
  page: number;
  pageSize: number;
  /** How many rows match in all (the X-Total-Count header). */
  total: number;
  onPage: (page: number) => void;
  /** A page is on its way: the buttons wait for it, so a double click cannot skip a page. */
  busy?: boolean;
  className?: string;
}

/**
 * The one pager of every paged list: "Showing 26–50 of 120" and Previous / Next. Nothing for an
 * empty list (its empty state says so); the count alone while everything fits on one page.
 */
export function Pager({ label, page, pageSize, total, onPage, busy = false, className }: PagerProps) {
  if (total <= 0) return null;
  const range = pageRange(page, pageSize, total);
  return (
    <nav
      aria-label={`${label} pages`}
      className={cn(
        'flex flex-wrap items-center justify-between gap-x-3 gap-y-2 border-t border-line-subtle pt-3',
        className,
      )}
    >
      <p className="text-sm whitespace-nowrap text-fg-subtle" aria-live="polite" data-pager-range>
        {pageRangeText(range, total)}
      </p>
      {range.pages > 1 && (
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={!range.hasPrevious || busy} onClick={() => onPage(page - 1)}>
            <ChevronLeft aria-hidden /> Previous
          </Button>
          <Button variant="outline" size="sm" disabled={!range.hasNext || busy} onClick={() => onPage(page + 1)}>
            Next <ChevronRight aria-hidden />
          </Button>
        </div>
      )}
    </nav>
  );
}
