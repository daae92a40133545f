import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { ListState } from '@/components/ListState';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';

/** A console list's page, kept in the URL by the view. */
export interface ListPaging {
  page: number;
  onPage: (page: number, options?: { replace?: boolean }) => void;
}

/**
 * The console lists' `ListState`: their skeleton row, and an empty state that names the search (the
 * tabs put the Pager under the rows).
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
  return (
    <ListState
      data={hasData ? count : undefined}
      isPending={isPending}
      isError={isError}
      isEmpty={(rows) => rows === 0}
      error={{ title: `The ${label} could not be loaded`, onRetry }}
      skeleton={
        <SkeletonRows
          label={`Loading ${label}`}
          className="divide-y divide-line-subtle"
          row={() => (
            <div className="flex items-center gap-4 px-5 py-4">
              <Skeleton className="size-9 rounded-full" />
              <div className="flex-1 space-y-1.5">
                <Skeleton className="h-4 w-1/3" />
                <Skeleton className="h-3 w-1/4" />
              </div>
              <Skeleton className="hidden h-5 w-20 rounded-full sm:block" />
            </div>
          )}
        />
      }
      empty={
        <EmptyState icon={emptyIcon} title={search ? `No ${label} match "${search}"` : emptyTitle}>
          {search ? 'Try part of a name, an email or a domain.' : emptyHint}
        </EmptyState>
      }
    >
      {() => children}
    </ListState>
  );
}
