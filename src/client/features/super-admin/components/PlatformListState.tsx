import { AlertCircle, ChevronLeft, ChevronRight, RefreshCw, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { PLATFORM_PAGE_SIZE } from '../api/platform';

/** A console list's page, kept in the URL by the view. */
export interface ListPaging {
  page: number;
  onPage: (page: number, options?: { replace?: boolean }) => void;
}

/**
 * What every console list shows around its rows: 5 skeleton rows while loading, an error with
 * Try again, an empty state that names the search, and the pager under the rows.
 */
export function PlatformListState({
  label,
  isPending,
  isError,
  hasData,
  count,
  search,
  emptyIcon,
  emptyTitle,
  emptyHint,
  onRetry,
  children,
}: {
  label: string;
  isPending: boolean;
  isError: boolean;
  hasData: boolean;
  count: number;
  search: string;
  emptyIcon: LucideIcon;
  emptyTitle: string;
  emptyHint: ReactNode;
  onRetry: () => void;
  children: ReactNode;
}) {
  if (isPending) {
    return (
      <ul aria-busy aria-label={`Loading ${label}`} className="divide-y divide-slate-100">
        {Array.from({ length: 5 }, (_, i) => (
          <li key={i} className="flex items-center gap-4 px-5 py-4">
            <Skeleton className="size-9 rounded-full" />
            <div className="flex-1 space-y-1.5">
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-3 w-1/4" />
            </div>
            <Skeleton className="hidden h-5 w-20 rounded-full sm:block" />
          </li>
        ))}
      </ul>
    );
  }
  if (isError && !hasData) {
    return (
      <EmptyState icon={AlertCircle} title={`The ${label} could not be loaded`}>
        <Button variant="outline" size="sm" className="mt-3" onClick={onRetry}>
          <RefreshCw aria-hidden /> Try again
        </Button>
      </EmptyState>
    );
  }
  if (count === 0) {
    return (
      <EmptyState icon={emptyIcon} title={search ? `No ${label} match "${search}"` : emptyTitle}>
        {search ? 'Try part of a name, an email or a domain.' : emptyHint}
      </EmptyState>
    );
  }
  return <>{children}</>;
}

export function PlatformPager({
  label,
  page,
  total,
  busy,
  onPage,
}: {
  label: string;
  page: number;
  total: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  if (total <= PLATFORM_PAGE_SIZE) return null;
  const pages = Math.ceil(total / PLATFORM_PAGE_SIZE);
  const first = page * PLATFORM_PAGE_SIZE + 1;
  const last = Math.min(total, (page + 1) * PLATFORM_PAGE_SIZE);
  return (
    <nav
      aria-label={`${label} pages`}
      className="flex items-center justify-between gap-3 border-t border-slate-100 px-5 py-3"
    >
      <p className="text-sm text-slate-500">
        {first.toLocaleString()}–{last.toLocaleString()} of {total.toLocaleString()}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
          <ChevronLeft aria-hidden /> Previous
        </Button>
        <Button variant="outline" size="sm" disabled={page + 1 >= pages || busy} onClick={() => onPage(page + 1)}>
          Next <ChevronRight aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
