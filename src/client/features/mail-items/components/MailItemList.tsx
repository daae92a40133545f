import type { MailItemSummary } from '@contract';
import {
  BellRing,
  ChevronDown,
  FileSignature,
  Image as ImageIcon,
  Inbox,
  Mail,
  MoreHorizontal,
  Package,
  PackageCheck,
  Pencil,
  Printer,
  Search,
  SearchX,
  Trash2,
  WifiOff,
  type LucideIcon,
} from 'lucide-react';
import { useId, useState } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { useListPage } from '@/lib/useListPage';
import { IconTile } from '@/components/IconTile';
import { Button } from '@/components/ui/button';
import { CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { ListSkeleton } from '@/components/ui/skeleton';
import { ExpectedBadge, HeldBadge, MailStatusBadge, OverdueBadge } from '@/components/StatusBadge';
import { useWriteBlock } from '@/lib/writeBlock';
import { cn } from '@/lib/cn';
import { formatDateTime, relativeTime } from '@/lib/format';
import { useErrorToast } from '@/lib/useErrorToast';
import { ApiError } from '@/lib/api';
import { displayStatus } from '@/lib/statusStyles';
import { useMailItems } from '../api/mailItems';
import { recipientFullName, storageLabel, typeLabel } from '../mailItemFormat';
import { MailItemDetails } from './MailItemDetails';
import { MailItemsCard } from './MailItemsCard';
import { useMailItemActions } from './useMailItemActions';

export const PAGE_SIZE = 25;

const typeIcons: Record<string, LucideIcon> = { package: Package, letter: Mail, certified_mail: FileSignature };

type Actions = ReturnType<typeof useMailItemActions>;

function RowActions({ item, actions }: { item: MailItemSummary; actions: Actions }) {
  const status = displayStatus(item.status);
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="size-9 px-0"
          aria-label={`Actions for ${typeLabel(item.type)} for ${recipientFullName(item)}`}
          disabled={actions.isUpdating(item)}
        >
          <MoreHorizontal aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-48">
        {status === 'pending' && (
          <DropdownMenuItem onSelect={() => actions.notify(item)}>
            <BellRing aria-hidden /> Mark Notified
          </DropdownMenuItem>
        )}
        {/* The one hand-over (decision 053): only an item still waiting can be handed over. */}
        {!['delivered', 'returned', 'needs_recipient'].includes(status) && (
          <DropdownMenuItem onSelect={() => actions.startDelivery(item)}>
            <PackageCheck aria-hidden /> Mark Delivered
          </DropdownMenuItem>
        )}
        <DropdownMenuItem onSelect={() => actions.startEdit(item)}>
          <Pencil aria-hidden /> Edit
        </DropdownMenuItem>
        {item.photoUrl && (
          <DropdownMenuItem onSelect={() => actions.viewPhoto(item)}>
            <ImageIcon aria-hidden /> View Photo
          </DropdownMenuItem>
        )}
        <DropdownMenuItem onSelect={() => actions.printSlips([item])}>
          <Printer aria-hidden /> Print pickup slip
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem
          className="text-red-600 dark:text-red-400 data-[highlighted]:bg-red-50 dark:data-[highlighted]:bg-red-950/40 data-[highlighted]:text-red-700 dark:data-[highlighted]:text-red-300"
          onSelect={() => actions.startDelete(item)}
        >
          <Trash2 aria-hidden /> Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function MailItemRow({
  organizationId,
  item,
  actions,
}: {
  organizationId: string;
  item: MailItemSummary;
  actions: Actions;
}) {
  const [expanded, setExpanded] = useState(false);
  const panelId = useId();
  const Icon = typeIcons[item.type] ?? Package;
  const storage = storageLabel(item);
  const overdue = item.isOverdue && displayStatus(item.status) !== 'delivered';
  const title = `${typeLabel(item.type)} for ${recipientFullName(item)}`;
  const badges = (
    <>
      {item.expectedPackageId && <ExpectedBadge />}
      {overdue && <OverdueBadge />}
      <HeldBadge heldUntil={item.heldUntil} />
      <MailStatusBadge status={item.status} />
    </>
  );

  return (
    <li className={cn('transition-colors', expanded && 'bg-surface-subtle/70')}>
      <div className="flex items-center gap-2 px-3 py-3 sm:gap-3 sm:px-5">
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={panelId}
          onClick={() => setExpanded((open) => !open)}
          className="flex min-w-0 flex-1 items-center gap-3 rounded-md text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <ChevronDown
            aria-hidden
            className={cn('size-4 shrink-0 text-fg-faint transition-transform', expanded && 'rotate-180')}
          />
          <IconTile icon={Icon} tone="muted" className="hidden size-10 rounded-lg sm:flex" iconClassName="size-5" />
          <span className="min-w-0 flex-1">
            <span className="block text-sm font-medium text-fg sm:truncate">{title}</span>
            <span className="block text-xs text-fg-subtle sm:truncate sm:text-sm">
              {[
                item.sender && `From ${item.sender}`,
                item.trackingNumber && [item.courierCompany, item.trackingNumber].filter(Boolean).join(' '),
                storage,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
            <span className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg-subtle">
              <time dateTime={item.arrivedAt} title={formatDateTime(item.arrivedAt)}>
                {relativeTime(item.arrivedAt)}
              </time>
              <span className="contents sm:hidden">{badges}</span>
            </span>
          </span>
        </button>
        <span className="hidden shrink-0 items-center gap-2 sm:flex">{badges}</span>
        <RowActions item={item} actions={actions} />
      </div>
      {expanded && (
        <div id={panelId} role="region" aria-label={`Details: ${title}`} className="px-4 pt-1 pb-5 sm:px-12">
          <MailItemDetails organizationId={organizationId} item={item} onViewPhoto={() => actions.viewPhoto(item)} />
        </div>
      )}
    </li>
  );
}

/** Spec §2: Recent Mail Items, newest first, 25 a page, with expandable rows and row actions. */
export function MailItemList({ organizationId }: { organizationId: string }) {
  const paging = useListPage(PAGE_SIZE);
  const [search, setSearch] = useState('');
  const searchId = useId();
  const list = useMailItems(organizationId, { search, order: 'desc', limit: PAGE_SIZE, offset: paging.offset });
  const actions = useMailItemActions(organizationId);
  // Without a network (an offline reload, decision 044) the list is not "empty" and not an error
  // to toast: it says it needs the network, above the waiting items' own list.
  const offline = !list.data && Boolean(list.error) && !(list.error instanceof ApiError);
  useErrorToast(offline ? null : list.error, 'Failed to fetch mail items');
  const blocked = useWriteBlock() !== null;
  paging.keepWithin(list);
  const searching = search.trim() !== '';

  return (
    <MailItemsCard
      header={
        <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="space-y-1">
            <CardTitle>Recent Mail Items</CardTitle>
            <CardDescription>Expand an item for its details and timeline.</CardDescription>
          </div>
          <div className="relative w-full sm:w-72">
            <label htmlFor={searchId} className="sr-only">
              Search mail items
            </label>
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-fg-faint"
            />
            <Input
              id={searchId}
              type="search"
              placeholder="Search mail items"
              className="pl-9"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                paging.setPage(0);
              }}
            />
          </div>
        </CardHeader>
      }
      list={list}
      paging={paging}
      pagerLabel="Mail items"
      skeleton={<ListSkeleton label="Loading mail items" iconClassName="hidden size-10 rounded-lg sm:block" />}
      empty={
        <EmptyState
          icon={offline ? WifiOff : searching ? SearchX : Inbox}
          title={
            offline
              ? 'Recent mail items need the network'
              : searching
                ? 'No mail items match your search'
                : 'No mail items yet'
          }
          action={
            searching && (
              <Button
                variant="outline"
                size="sm"
                onClick={() => {
                  setSearch('');
                  paging.setPage(0);
                }}
              >
                Clear search
              </Button>
            )
          }
        >
          {offline
            ? 'They load again when the network returns. Mail logged meanwhile waits on this device.'
            : searching
              ? 'Try a different tracking number, sender or name.'
              : blocked
                ? 'Logged mail appears here once logging resumes.'
                : 'Log New Mail, at the top of this page, records the first arrival.'}
        </EmptyState>
      }
      dialogs={actions.dialogs}
    >
      {(items) => (
        <ul aria-label="Recent mail items" className="divide-y divide-line-subtle border-t border-line-subtle">
          {items.map((item) => (
            <MailItemRow key={item.id} organizationId={organizationId} item={item} actions={actions} />
          ))}
        </ul>
      )}
    </MailItemsCard>
  );
}
