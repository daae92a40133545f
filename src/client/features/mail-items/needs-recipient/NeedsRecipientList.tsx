import type { NeedsRecipientItem } from '@contract';
import { ImageOff, UserCheck, UserSearch } from 'lucide-react';
import { useState } from 'react';
import { EmptyState, EmptyStateLink } from '@/components/EmptyState';
import { ListState } from '@/components/ListState';
import { Pager } from '@/components/Pager';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ListSkeleton } from '@/components/ui/skeleton';
import { displayName, formatDateTime, relativeTime } from '@/lib/format';
import { useListPage } from '@/lib/useListPage';
import { useErrorToast } from '@/lib/useErrorToast';
import { NEEDS_RECIPIENT_PAGE_SIZE, useNeedsRecipient } from '../api/needsRecipient';
import { typeLabel } from '../mailItemFormat';
import { ResolveRecipientDialog } from './ResolveRecipientDialog';

/** The photo is what a clerk recognises the item by: the thumbnail (by URL), the full photo in a new tab. */
function Thumbnail({ item }: { item: NeedsRecipientItem }) {
  const [failed, setFailed] = useState(false);
  if (!item.thumbnailUrl || failed) {
    return (
      <span className="flex size-16 shrink-0 items-center justify-center rounded-md border border-line bg-surface-muted text-fg-faint">
        <ImageOff aria-hidden className="size-5" />
        <span className="sr-only">{failed ? 'Failed to load image' : 'No photo'}</span>
      </span>
    );
  }
  return (
    <a
      href={item.photoUrl ?? item.thumbnailUrl}
      target="_blank"
      rel="noreferrer"
      aria-label="Open the full-size photo"
      className="block shrink-0 overflow-hidden rounded-md border border-line focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
    >
      <img
        src={item.thumbnailUrl}
        alt=""
        loading="lazy"
        className="size-16 object-cover"
        onError={() => setFailed(true)}
      />
    </a>
  );
}

function Row({ item, onResolve }: { item: NeedsRecipientItem; onResolve: () => void }) {
  const what = [item.courierCompany, item.trackingNumber].filter(Boolean).join(' ') || 'No tracking number';
  const where = item.location ? `${item.location.name} · ${item.location.mailroomName}` : null;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:px-6" data-item-id={item.id}>
      <Thumbnail item={item} />
      {/* on a phone the text takes the row beside the photo and the button goes under both */}
      <div className="min-w-0 flex-1 basis-40 text-sm">
        <span className="block font-medium break-all text-fg">{what}</span>
        <span className="block text-xs text-fg-subtle">
          {[typeLabel(item.type), item.sender && `from ${item.sender}`, where].filter(Boolean).join(' · ')}
        </span>
        <span className="block text-xs text-fg-subtle">
          Logged{' '}
          <time dateTime={item.arrivedAt} title={formatDateTime(item.arrivedAt)}>
            {relativeTime(item.arrivedAt)}
          </time>
          {item.loggedBy ? ` by ${displayName(item.loggedBy)}` : ''}
        </span>
        {item.expectedBy.length > 0 && (
          // Decision 047: offered when choosing, never chosen by itself.
          <span className="block text-xs font-medium text-emerald-800 dark:text-emerald-300">
            Expected by {item.expectedBy.map((r) => `${r.firstName} ${r.lastName}`.trim()).join(', ')}
          </span>
        )}
      </div>
      <Button size="sm" onClick={onResolve} aria-label={`Choose recipient: ${what}`} className="max-sm:w-full">
        <UserCheck aria-hidden /> Choose recipient
      </Button>
    </li>
  );
}

/** Issue 28's exceptions: what the desk logged without knowing whom it is for, newest first. */
export function NeedsRecipientList({ organizationId }: { organizationId: string }) {
  const paging = useListPage(NEEDS_RECIPIENT_PAGE_SIZE);
  const list = useNeedsRecipient(organizationId, paging.offset);
  useErrorToast(list.error, 'Failed to fetch the items that need a recipient');
  paging.keepWithin(list);
  const [resolving, setResolving] = useState<NeedsRecipientItem | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Waiting for a recipient</CardTitle>
        <CardDescription>
          Not in Pending Pickups and nobody is reminded until you choose the recipient; they are notified then.
        </CardDescription>
      </CardHeader>
      <CardContent className="px-0 pt-3 pb-2 sm:px-0 sm:pt-4 sm:pb-2">
        <ListState
          data={list.data?.items}
          isPending={list.isPending}
          skeleton={
            <ListSkeleton
              label="Loading the items that need a recipient"
              className="divide-y divide-line-subtle border-t border-line-subtle"
              rowClassName="gap-4 px-6 py-3"
              iconClassName="size-16 rounded-md"
              lineClassNames={['h-4 w-2/5', 'mt-2 h-3.5 w-1/4']}
              trailingClassName="h-8 w-36"
            />
          }
          empty={
            <EmptyState
              icon={UserSearch}
              title="Every item has its recipient"
              action={<EmptyStateLink href="/mail-intake">Log mail</EmptyStateLink>}
            >
              When a label cannot be read, use Log without recipient in Log Mail and the item waits here.
            </EmptyState>
          }
        >
          {(items) => (
            <ul
              aria-label="Items that need a recipient"
              className="divide-y divide-line-subtle border-t border-line-subtle"
            >
              {items.map((item) => (
                <Row key={item.id} item={item} onResolve={() => setResolving(item)} />
              ))}
            </ul>
          )}
        </ListState>
        <Pager label="Items that need a recipient" {...paging.pagerFor(list)} className="px-4 sm:px-6" />
      </CardContent>
      <ResolveRecipientDialog
        organizationId={organizationId}
        item={resolving}
        onOpenChange={(open) => !open && setResolving(null)}
      />
    </Card>
  );
}
