import type { MailItemSummary } from '@contract';
import { BellRing, PackageCheck, PackageOpen, Printer } from 'lucide-react';
import { EmptyState, EmptyStateLink } from '@/components/EmptyState';
import { useListPage } from '@/lib/useListPage';
import { Button } from '@/components/ui/button';
import { CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ListSkeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ExpectedBadge, HeldBadge, MailStatusBadge, OverdueBadge } from '@/components/StatusBadge';
import { displayStatus } from '@/lib/statusStyles';
import { cn } from '@/lib/cn';
import { formatDateTime, relativeTime } from '@/lib/format';
import { useErrorToast } from '@/lib/useErrorToast';
import { useMailItems } from '../api/mailItems';
import { recipientFullName, storageLabel, typeLabel } from '../mailItemFormat';
import { MailItemsCard } from './MailItemsCard';
import { useMailItemActions } from './useMailItemActions';

const PAGE_SIZE = 50;

type Actions = ReturnType<typeof useMailItemActions>;

function ItemActions({ item, actions, className }: { item: MailItemSummary; actions: Actions; className?: string }) {
  const label = `${typeLabel(item.type)} for ${recipientFullName(item)}`;
  const busy = actions.isUpdating(item);
  return (
    <div className={cn('flex gap-2', className)}>
      {displayStatus(item.status) === 'pending' && (
        <Button
          variant="outline"
          size="sm"
          aria-label={`Notify: ${label}`}
          disabled={busy}
          title="Notify"
          className="md:max-2xl:px-2.5"
          onClick={() => actions.notify(item)}
        >
          {/* the table's Actions column is three buttons wide: on a laptop beside the sidebar the
              words made the table wider than its card, so it scrolled sideways and cut Print off */}
          <BellRing aria-hidden /> <span className="md:max-2xl:sr-only">Notify</span>
        </Button>
      )}
      <Button size="sm" aria-label={`Delivered: ${label}`} disabled={busy} onClick={() => actions.startDelivery(item)}>
        <PackageCheck aria-hidden /> Delivered
      </Button>
      <Button
        variant="outline"
        size="sm"
        aria-label={`Print pickup slip: ${label}`}
        title="Print pickup slip"
        className="px-2.5 max-md:flex-none!"
        onClick={() => actions.printSlips([item])}
      >
        <Printer aria-hidden />
      </Button>
    </div>
  );
}

function Arrived({ item }: { item: MailItemSummary }) {
  return (
    <time dateTime={item.arrivedAt} title={formatDateTime(item.arrivedAt)}>
      {relativeTime(item.arrivedAt)}
    </time>
  );
}

function Status({ item }: { item: MailItemSummary }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {item.expectedPackageId && <ExpectedBadge />}
      {item.isOverdue && <OverdueBadge />}
      <HeldBadge heldUntil={item.heldUntil} />
      <MailStatusBadge status={item.status} />
    </span>
  );
}

function ItemSummary({ item }: { item: MailItemSummary }) {
  const details = [item.courierCompany, item.trackingNumber].filter(Boolean).join(' ');
  const storage = storageLabel(item);
  return (
    <>
      <span className="block font-medium text-fg">{typeLabel(item.type)}</span>
      {(details || storage) && (
        <span className="block text-xs text-fg-subtle">{[details, storage].filter(Boolean).join(' · ')}</span>
      )}
    </>
  );
}

function RecipientCell({ item }: { item: MailItemSummary }) {
  return (
    <>
      <span className="block text-fg">{recipientFullName(item)}</span>
      {item.recipient?.unit && <span className="block text-xs text-fg-subtle">Unit {item.recipient.unit}</span>}
    </>
  );
}

/** Wide screens: the spec's table. */
function WideTable({ items, actions }: { items: MailItemSummary[]; actions: Actions }) {
  return (
    <Table className="hidden md:table">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Item</TableHead>
          <TableHead>Recipient</TableHead>
          <TableHead>Sender</TableHead>
          <TableHead>Arrived</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => (
          <TableRow
            key={item.id}
            data-overdue={item.isOverdue || undefined}
            className={cn(item.isOverdue && 'bg-red-50/40 dark:bg-red-950/40')}
          >
            <TableCell className={cn('border-l-4 border-transparent', item.isOverdue && 'border-red-500')}>
              <ItemSummary item={item} />
            </TableCell>
            <TableCell>
              <RecipientCell item={item} />
            </TableCell>
            <TableCell>{item.sender ?? 'Unknown'}</TableCell>
            <TableCell className="whitespace-nowrap">
              <Arrived item={item} />
            </TableCell>
            <TableCell>
              <Status item={item} />
            </TableCell>
            <TableCell>
              <ItemActions item={item} actions={actions} className="justify-end" />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Phones: one card per item, the same facts and actions. */
function NarrowList({ items, actions }: { items: MailItemSummary[]; actions: Actions }) {
  return (
    <ul aria-label="Pending pickups" className="divide-y divide-line-subtle md:hidden">
      {items.map((item) => (
        <li
          key={item.id}
          className={cn(
            'border-l-4 border-transparent px-4 py-3',
            item.isOverdue && 'border-red-500 bg-red-50/40 dark:bg-red-950/40',
          )}
        >
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0 text-sm">
              <RecipientCell item={item} />
            </div>
            <Status item={item} />
          </div>
          <div className="mt-1 text-sm text-fg-muted">
            <ItemSummary item={item} />
            <span className="block text-xs text-fg-subtle">
              From {item.sender ?? 'Unknown'} · <Arrived item={item} />
            </span>
          </div>
          <ItemActions item={item} actions={actions} className="mt-3 [&>button]:flex-1" />
        </li>
      ))}
    </ul>
  );
}

/** Spec §2: everything not yet collected, overdue first, then the oldest arrival. */
export function PendingPickupsTable({ organizationId }: { organizationId: string }) {
  const paging = useListPage(PAGE_SIZE);
  const filters = { status: 'pending,notified', order: 'asc', limit: PAGE_SIZE, offset: paging.offset } as const;
  const list = useMailItems(organizationId, filters);
  const actions = useMailItemActions(organizationId);
  useErrorToast(list.error, 'Failed to fetch pending items');
  // Handing over the last items of the last page: show the new last page.
  paging.keepWithin(list);
  // "Print slips" prints the page shown: at most PAGE_SIZE, in the list's order
  const pageItems = list.data?.items ?? [];

  return (
    <MailItemsCard
      header={
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
          <div className="space-y-1.5">
            <CardTitle>Waiting for pickup</CardTitle>
            <CardDescription>Overdue items first, then the oldest arrivals.</CardDescription>
          </div>
          {pageItems.length > 1 && (
            <Button variant="outline" size="sm" onClick={() => actions.printSlips(pageItems)}>
              <Printer aria-hidden /> Print {pageItems.length} slips
            </Button>
          )}
        </CardHeader>
      }
      list={list}
      paging={paging}
      pagerLabel="Pending pickups"
      skeleton={
        <ListSkeleton
          label="Loading pending pickups"
          className="divide-y divide-line-subtle border-t border-line-subtle"
          rowClassName="gap-4 px-5 py-3.5"
          iconClassName="size-9 rounded-lg"
          lineClassNames={['h-4 w-2/5', 'mt-2 h-3.5 w-1/4']}
          trailingClassName={['hidden h-4 w-24 md:block', 'h-5 w-16 rounded-full', 'hidden h-8 w-24 sm:block']}
        />
      }
      empty={
        <EmptyState
          icon={PackageOpen}
          title="No pending pickups"
          action={<EmptyStateLink href="/mail-intake">Log mail</EmptyStateLink>}
        >
          Everything logged has been handed over. New arrivals are logged in Mail Intake.
        </EmptyState>
      }
      dialogs={actions.dialogs}
    >
      {(items) => (
        <div className="border-t border-line-subtle">
          <WideTable items={items} actions={actions} />
          <NarrowList items={items} actions={actions} />
        </div>
      )}
    </MailItemsCard>
  );
}
