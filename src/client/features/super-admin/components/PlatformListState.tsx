import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { ListState } from '@/components/ListState';
import { Pager } from '@/components/Pager';
import { ListSkeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableHeader, TableRow } from '@/components/ui/table';
import { PLATFORM_PAGE_SIZE } from '../api/platform';

/** A console list's page, kept in the URL by the view. */
export interface ListPaging {
  page: number;
  onPage: (page: number, options?: { replace?: boolean }) => void;
}

/** A page of a console list as its query holds it. */
interface PlatformList<T> {
  data?: { items: T[]; total: number };
  isPending: boolean;
  isError: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

/**
 * The console lists' `ListState`: their skeleton row, an empty state that names the search, and
 * the Pager under the rows.
 */
export function PlatformListState<T>({
  list,
  label,
  pagerLabel,
  search,
  paging,
  emptyIcon,
  emptyTitle,
  emptyHint,
  children,
}: {
  list: PlatformList<T>;
  /** What the list holds, in a sentence: "organizations", "log entries". */
  label: string;
  /** The Pager's name: "Organizations" gives "Organizations pages". */
  pagerLabel: string;
  search: string;
  paging: ListPaging;
  emptyIcon: LucideIcon;
  emptyTitle: string;
  emptyHint: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <>
      <ListState
        data={list.data?.items}
        isPending={list.isPending}
        isError={list.isError}
        error={{ title: `The ${label} could not be loaded`, onRetry: () => void list.refetch() }}
        skeleton={
          <ListSkeleton
            label={`Loading ${label}`}
            rowClassName="gap-4 px-5 py-4"
            iconClassName="size-9 rounded-full"
            lineClassNames={['h-4 w-1/3', 'mt-1.5 h-3 w-1/4']}
            trailingClassName="hidden h-5 w-20 rounded-full sm:block"
          />
        }
        empty={
          <EmptyState icon={emptyIcon} title={search ? `No ${label} match "${search}"` : emptyTitle}>
            {search ? 'Try part of a name, an email or a domain.' : emptyHint}
          </EmptyState>
        }
      >
        {children}
      </ListState>
      <Pager
        label={pagerLabel}
        page={paging.page}
        pageSize={PLATFORM_PAGE_SIZE}
        total={list.data?.total ?? 0}
        busy={list.isPlaceholderData}
        onPage={paging.onPage}
        className="px-5 pb-3"
      />
    </>
  );
}

/**
 * A console list drawn twice, both named `label`: a table from md up (busy while the next page
 * loads) and a card per row on phones.
 */
export function PlatformTable<T extends { id: string }>({
  label,
  items,
  busy,
  head,
  row,
  card,
}: {
  label: string;
  items: T[];
  busy: boolean;
  /** The table's header cells. */
  head: ReactNode;
  /** One table row, keyed. */
  row: (item: T) => ReactNode;
  /** A phone card's content: the facts, then the row's action. */
  card: (item: T) => ReactNode;
}) {
  return (
    <>
      <div className="hidden md:block" aria-busy={busy || undefined}>
        <Table aria-label={label}>
          <TableHeader>
            <TableRow className="hover:bg-transparent">{head}</TableRow>
          </TableHeader>
          <TableBody>{items.map((item) => row(item))}</TableBody>
        </Table>
      </div>
      <ul aria-label={label} className="divide-y divide-line-subtle md:hidden">
        {items.map((item) => (
          <li key={item.id} className="flex items-start justify-between gap-3 px-4 py-3.5">
            {card(item)}
          </li>
        ))}
      </ul>
    </>
  );
}
