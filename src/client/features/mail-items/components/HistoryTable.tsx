import type { MailItemSummary } from '@contract';
import { collectorOf } from '@contract';
import { ChevronDown, SearchX } from 'lucide-react';
import { useId, useState } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { ListState } from '@/components/ListState';
import { Button } from '@/components/ui/button';
import { HISTORY_SKELETON_ROWS, Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { MailStatusBadge } from '@/components/StatusBadge';
import { Pager } from '@/components/Pager';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { recipientFullName, typeLabel } from '../mailItemFormat';
import { HISTORY_PAGE_SIZE } from '../api/history';
import { MailItemDetails } from './MailItemDetails';
import { PhotoDialog } from './PhotoDialog';

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-fg-subtle">—</span>;
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

/** Table cells: the date, with the time beneath it. */
function WhenStacked({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-fg-subtle">—</span>;
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={formatDateTime(iso)} className="whitespace-nowrap">
      <span className="block text-fg">{dateOnly.format(date)}</span>
      <span className="block text-xs text-fg-subtle">{timeOnly.format(date)}</span>
    </time>
  );
}

/**
 * Who collected it, under the hand-over's date: the question History is opened for ("I never got
 * it"). A delivered item without a recorded collector says so (issue 41 item 6), never a name.
 */
function Collector({ item }: { item: MailItemSummary }) {
  const collector = collectorOf(item);
  if (!collector) return null;
  const text = item.collectorName?.trim() ? `Collected by ${collector}` : collector;
  return (
    <span data-testid="history-collector" className="mt-0.5 block max-w-40 truncate text-xs text-fg-muted" title={text}>
      {text}
    </span>
  );
}

function itemTitle(item: MailItemSummary) {
  return `${typeLabel(item.type)} for ${recipientFullName(item)}`;
}

interface RowProps {
  organizationId: string;
  item: MailItemSummary;
  expanded: boolean;
  onToggle: () => void;
  onViewPhoto: (item: MailItemSummary) => void;
}

/** Wide screens: one table row per item, its details and timeline in a row beneath. */
function HistoryRow({ organizationId, item, expanded, onToggle, onViewPhoto }: RowProps) {
  const panelId = useId();
  return (
    <>
      <TableRow
        className={cn('cursor-pointer [&>td]:px-3', expanded && 'bg-surface-subtle/70 hover:bg-surface-subtle/70')}
        onClick={onToggle}
      >
        <TableCell>
          <span className="flex items-center gap-2">
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={expanded ? panelId : undefined}
              aria-label={`Details: ${itemTitle(item)}`}
              onClick={(event) => {
                event.stopPropagation();
                onToggle();
              }}
              className="-ml-1 flex size-7 shrink-0 items-center justify-center rounded-md text-fg-faint hover:bg-surface-muted hover:text-fg-secondary focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
            >
              <ChevronDown aria-hidden className={cn('size-4 transition-transform', expanded && 'rotate-180')} />
            </button>
            <WhenStacked iso={item.arrivedAt} />
          </span>
        </TableCell>
        <TableCell className="whitespace-nowrap">{typeLabel(item.type)}</TableCell>
        <TableCell className="min-w-28">
          <span className="block text-fg">{recipientFullName(item)}</span>
          {item.recipient?.unit && <span className="block text-xs text-fg-subtle">Unit {item.recipient.unit}</span>}
        </TableCell>
        <TableCell className="max-w-44 min-w-28">
          {item.sender ? (
            <span className="line-clamp-2 break-words" title={item.sender}>
              {item.sender}
            </span>
          ) : (
            <span className="text-fg-subtle">—</span>
          )}
        </TableCell>
        <TableCell className="max-w-36 font-mono text-xs break-all">
          {item.trackingNumber ?? <span className="font-sans text-sm text-fg-subtle">—</span>}
        </TableCell>
        <TableCell>
          <MailStatusBadge status={item.status} />
        </TableCell>
        <TableCell>
          <WhenStacked iso={item.deliveredAt} />
          <Collector item={item} />
        </TableCell>
      </TableRow>
      {expanded && (
        <TableRow className="bg-surface-subtle/70 hover:bg-surface-subtle/70">
          <TableCell colSpan={7} className="px-6 pt-2 pb-6 sm:px-12">
            <div id={panelId} role="region" aria-label={`Details: ${itemTitle(item)}`}>
              <MailItemDetails organizationId={organizationId} item={item} onViewPhoto={() => onViewPhoto(item)} />
            </div>
          </TableCell>
        </TableRow>
      )}
    </>
  );
}

/** Phones: one card per item, expandable the same way. */
function HistoryCard({ organizationId, item, expanded, onToggle, onViewPhoto }: RowProps) {
  const panelId = useId();
  return (
    <li className={cn(expanded && 'bg-surface-subtle/70')}>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={expanded ? panelId : undefined}
        onClick={onToggle}
        className="flex w-full items-start gap-3 px-4 py-3 text-left focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none focus-visible:ring-inset"
      >
        <span className="min-w-0 flex-1 text-sm">
          <span className="flex items-start justify-between gap-2">
            <span className="min-w-0 font-medium text-fg">{itemTitle(item)}</span>
            <MailStatusBadge status={item.status} />
          </span>
          <span className="mt-0.5 block truncate text-xs text-fg-subtle">
            {[item.sender && `From ${item.sender}`, item.trackingNumber].filter(Boolean).join(' · ') || 'No sender'}
          </span>
          <span className="mt-1 block text-xs text-fg-subtle">
            Arrived <When iso={item.arrivedAt} />
            {item.deliveredAt && (
              <>
                {' · '}Delivered <When iso={item.deliveredAt} />
              </>
            )}
          </span>
          <Collector item={item} />
        </span>
        <ChevronDown
          aria-hidden
          className={cn('mt-0.5 size-4 shrink-0 text-fg-faint transition-transform', expanded && 'rotate-180')}
        />
      </button>
      {expanded && (
        <div id={panelId} role="region" aria-label={`Details: ${itemTitle(item)}`} className="px-4 pt-1 pb-5">
          <MailItemDetails organizationId={organizationId} item={item} onViewPhoto={() => onViewPhoto(item)} />
        </div>
      )}
    </li>
  );
}

function TableSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading history" data-skeleton={HISTORY_SKELETON_ROWS}>
      <div className="hidden md:block">
        <div className="h-10 border-b border-line bg-surface-subtle/80" />
        {Array.from({ length: HISTORY_SKELETON_ROWS }, (_, i) => (
          <div key={i} data-skeleton-row className="flex items-center gap-6 border-b border-line-subtle px-4 py-3.5">
            <Skeleton className="size-5" />
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-4 w-16" />
            <Skeleton className="h-4 flex-1" />
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-5 w-20 rounded-full" />
            <Skeleton className="h-4 w-28" />
          </div>
        ))}
      </div>
      <ul className="divide-y divide-line-subtle md:hidden">
        {Array.from({ length: HISTORY_SKELETON_ROWS }, (_, i) => (
          <li key={i} data-skeleton-row className="space-y-2 px-4 py-3.5">
            <div className="flex justify-between gap-3">
              <Skeleton className="h-4 w-1/2" />
              <Skeleton className="h-5 w-16 rounded-full" />
            </div>
            <Skeleton className="h-3.5 w-2/3" />
          </li>
        ))}
      </ul>
    </div>
  );
}

interface HistoryTableProps {
  organizationId: string;
  items: MailItemSummary[] | undefined;
  total: number;
  page: number;
  isLoading: boolean;
  isFetching: boolean;
  onPage: (page: number) => void;
  /** The empty table's next step: clear the type, status and search, or widen the range to all time. */
  onWidenFilter?: { label: string; run: () => void };
}

/** Spec §2 History table: Date, Type, Recipient, Sender, Tracking, Status, Delivered; 25 a page. */
export function HistoryTable({
  organizationId,
  items,
  total,
  page,
  isLoading,
  isFetching,
  onPage,
  onWidenFilter,
}: HistoryTableProps) {
  const [expandedId, setExpandedId] = useState<string | null>(null);
  const [photoItem, setPhotoItem] = useState<MailItemSummary | null>(null);
  const toggle = (id: string) => setExpandedId((open) => (open === id ? null : id));

  const rowProps = (item: MailItemSummary) => ({
    organizationId,
    item,
    expanded: expandedId === item.id,
    onToggle: () => toggle(item.id),
    onViewPhoto: setPhotoItem,
  });

  return (
    <ListState
      data={items}
      isPending={isLoading}
      skeleton={<TableSkeleton />}
      empty={
        <EmptyState
          icon={SearchX}
          title="No mail items match these filters"
          className="py-16"
          action={
            onWidenFilter && (
              <Button variant="outline" size="sm" onClick={onWidenFilter.run}>
                {onWidenFilter.label}
              </Button>
            )
          }
        >
          Try a longer date range, another type or status, or a different search.
        </EmptyState>
      }
    >
      {(items) => (
        <>
          <div className={cn('transition-opacity', isFetching && 'opacity-60')}>
            <Table className="hidden md:table" aria-label="Mail item history">
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  <TableHead className="px-3 pl-11">Date</TableHead>
                  <TableHead className="px-3">Type</TableHead>
                  <TableHead className="px-3">Recipient</TableHead>
                  <TableHead className="px-3">Sender</TableHead>
                  <TableHead className="px-3">Tracking</TableHead>
                  <TableHead className="px-3">Status</TableHead>
                  <TableHead className="px-3">Delivered</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((item) => (
                  <HistoryRow key={item.id} {...rowProps(item)} />
                ))}
              </TableBody>
            </Table>
            <ul aria-label="Mail item history" className="divide-y divide-line-subtle md:hidden">
              {items.map((item) => (
                <HistoryCard key={item.id} {...rowProps(item)} />
              ))}
            </ul>
          </div>
          <Pager
            label="History"
            page={page}
            pageSize={HISTORY_PAGE_SIZE}
            total={total}
            busy={isFetching}
            onPage={onPage}
            className="border-line px-4 pb-3 sm:px-5"
          />
          <PhotoDialog item={photoItem} onOpenChange={(open) => !open && setPhotoItem(null)} />
        </>
      )}
    </ListState>
  );
}
