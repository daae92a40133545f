import type { MailItem, MailItemHistoryEntry, MailItemSummary } from '@contract';
import { COLLECTOR_NOT_RECORDED, collectorOf } from '@contract';
import { CircleCheck, ImageOff, Maximize2 } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { displayName, formatDateTime, humanize } from '@/lib/format';
import { useErrorToast } from '@/lib/useErrorToast';
import { invalidateMailItems } from '@/lib/resources/invalidate';
import { useMailItem } from '../api/mailItem';
import { useMailItemHistory } from '../api/mailItemHistory';
import { recipientFullName, storageLabel } from '../mailItemFormat';
import { MailItemLoadError } from './MailItemLoadError';
import { HandoverProof } from '../handover/HandoverProof';
import { NotificationsTimeline } from './NotificationsTimeline';

function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section className={className}>
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-fg-subtle uppercase">{title}</h3>
      <div className="text-sm text-fg-secondary">{children}</div>
    </section>
  );
}

/** A fact and its value; the value is undefined while the full item that holds it loads. */
type Fact = [label: string, value: string | null | undefined];

/**
 * The recorded facts of a section. While the full item loads, `loading` skeleton lines stand where
 * the facts only it holds will be (the row's own facts show at once).
 */
function Facts({ rows, loading = 0 }: { rows: Fact[]; loading?: number }) {
  const shown = rows.filter(([, value]) => value);
  if (shown.length === 0 && loading === 0) return <p className="text-fg-subtle">Not recorded</p>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
      {shown.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-fg-subtle">{label}</dt>
          <dd className="min-w-0 break-words">{value}</dd>
        </div>
      ))}
      {Array.from({ length: loading }, (_, i) => (
        <div key={i} className="contents">
          <dt className="flex h-5 items-center">
            <Skeleton className="h-3.5 w-16" />
          </dt>
          <dd className="flex h-5 items-center">
            <Skeleton className="h-3.5 w-2/5" />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A free-text field of the full item: a skeleton line while it loads, a dash if it failed to. */
function Text({ value, empty, loading }: { value: string | null | undefined; empty: string; loading: boolean }) {
  if (loading) return <Skeleton className="my-0.5 h-4 w-3/4" />;
  if (value === undefined) return <p className="text-fg-subtle">—</p>;
  return <p className={value ? 'whitespace-pre-line' : 'text-fg-subtle'}>{value ?? empty}</p>;
}

function entryText(entry: MailItemHistoryEntry) {
  if (entry.action === 'created') return 'Logged';
  if (entry.previousStatus && entry.newStatus && entry.previousStatus !== entry.newStatus) {
    return `${humanize(entry.previousStatus)} → ${humanize(entry.newStatus)}`;
  }
  return humanize(entry.action);
}

/**
 * A change to delivered that recorded no collector (a status change, not a hand-over, whose entry
 * notes "Collected by …"): the timeline says so rather than leave it to be guessed (issue 41 item 6).
 */
function deliveredWithoutCollector(entry: MailItemHistoryEntry) {
  return (
    entry.newStatus === 'delivered' && entry.previousStatus !== 'delivered' && !entry.notes?.startsWith('Collected by')
  );
}

function Timeline({ organizationId, id }: { organizationId: string; id: string }) {
  const history = useMailItemHistory(organizationId, id, true);
  useErrorToast(history.error, 'Failed to fetch history');
  if (history.isPending) {
    return (
      <div className="space-y-2" aria-busy>
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-4 w-2/3" />
      </div>
    );
  }
  const entries = history.data?.pages.flatMap((p) => p.items) ?? [];
  if (!entries.length) return <p className="text-fg-subtle">No history recorded</p>;
  const total = history.data?.pages.at(-1)?.total ?? entries.length;
  return (
    <>
      <ol className="space-y-2 border-l border-line pl-4">
        {entries.map((entry) => (
          <li key={entry.id} className="relative">
            <span
              aria-hidden
              className="absolute top-1.5 -left-[21px] size-2.5 rounded-full bg-indigo-500 ring-2 ring-surface"
            />
            <p className="font-medium text-fg">{entryText(entry)}</p>
            <p className="text-xs text-fg-subtle">
              <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
              {entry.performedBy && <> · {displayName(entry.performedBy)}</>}
            </p>
            {entry.notes && <p className="text-xs text-fg-muted">{entry.notes}</p>}
            {deliveredWithoutCollector(entry) && <p className="text-xs text-fg-muted">{COLLECTOR_NOT_RECORDED}</p>}
          </li>
        ))}
      </ol>
      {/* A long timeline comes a page at a time (issue 41, item 7): the rest on demand. */}
      {history.hasNextPage && (
        <Button
          variant="outline"
          size="sm"
          className="mt-3"
          disabled={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          {history.isFetchingNextPage ? 'Loading…' : `Show more (${total - entries.length} more)`}
        </Button>
      )}
    </>
  );
}

function Thumbnail({ item, onView }: { item: Pick<MailItemSummary, 'photoUrl' | 'thumbnailUrl'>; onView: () => void }) {
  const [failed, setFailed] = useState(false);
  if (!item.photoUrl) return <p className="text-fg-subtle">No photo</p>;
  if (failed) {
    return (
      <p className="flex items-center gap-2 text-fg-subtle">
        <ImageOff aria-hidden className="size-4" /> Failed to load image
      </p>
    );
  }
  return (
    <button
      type="button"
      onClick={onView}
      aria-label="View full-size photo"
      className="group relative block overflow-hidden rounded-md border border-line focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
    >
      <img
        src={item.thumbnailUrl ?? item.photoUrl}
        alt=""
        loading="lazy"
        className="h-24 w-32 object-cover"
        onError={() => setFailed(true)}
      />
      <span className="absolute inset-0 flex items-center justify-center bg-slate-900/0 text-white opacity-0 transition group-hover:bg-slate-900/40 group-hover:opacity-100">
        <Maximize2 aria-hidden className="size-5" />
      </span>
    </button>
  );
}

/**
 * The row came from the list, the full item just now: when the item moved on meanwhile (an accepted
 * arrival message marks it notified on the server), the lists and dashboard fetch it again, once.
 */
function useRefreshStaleRow(organizationId: string, row: MailItemSummary, full: MailItem | undefined) {
  const queryClient = useQueryClient();
  // Timestamps compared as instants: the two replies need not spell them alike.
  const at = (iso: string | null) => (iso ? new Date(iso).getTime() : null);
  const stale = full !== undefined && (full.status !== row.status || at(full.deliveredAt) !== at(row.deliveredAt));
  useEffect(() => {
    if (stale) void invalidateMailItems(queryClient, organizationId);
  }, [stale, queryClient, organizationId]);
}

interface MailItemDetailsProps {
  organizationId: string;
  /** The list's row: its facts show at once, the rest loads with the full item. */
  item: MailItemSummary;
  onViewPhoto: () => void;
}

/**
 * Spec §2: recipient details, timeline, description, notes, photo, package info and storage. The
 * row's facts show at once; the full item (GET /api/mail-items/{id}) fills in the rest.
 */
export function MailItemDetails({ organizationId, item, onViewPhoto }: MailItemDetailsProps) {
  const query = useMailItem(organizationId, item.id, true);
  const full: MailItem | undefined = query.data;
  useRefreshStaleRow(organizationId, item, full);
  // Failed: what the row knows stays, the rest is left out (the error line says why).
  const loading = query.isPending;
  const r = item.recipient;
  return (
    <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" aria-busy={loading || undefined}>
      {query.isError && (
        <div className="sm:col-span-2 lg:col-span-3">
          <MailItemLoadError error={query.error} onRetry={() => void query.refetch()} />
        </div>
      )}
      <Section title="Recipient">
        {r ? (
          <Facts
            rows={[
              ['Name', recipientFullName(item)],
              ['Unit', r.unit],
              ['Department', full?.recipient?.department],
              ['Email', full?.recipient?.email],
              ['Phone', full?.recipient?.phone],
            ]}
            loading={loading ? 2 : 0}
          />
        ) : (
          <p className="text-fg-subtle">Unknown Recipient</p>
        )}
      </Section>
      <Section title="Package Info">
        {item.expectedPackageId && (
          <p className="mb-1.5 flex items-center gap-1.5 font-medium text-green-700 dark:text-green-400">
            <CircleCheck aria-hidden className="size-4 shrink-0" />
            Expected by the recipient
            <span className="sr-only">: they registered this tracking number on their page before it arrived</span>
          </p>
        )}
        <Facts
          rows={[
            ['Tracking', item.trackingNumber],
            ['Courier', item.courierCompany],
            ['Sender', item.sender],
            ['Sender address', full?.senderAddress],
            // The staff member who took it in (Log Mail's "Received by"), not who collected it.
            ['Received by', full?.collectedByStaff],
            [
              'Collector',
              collectorOf({ status: item.status, collectorName: full?.collectorName ?? item.collectorName }),
            ],
            ['Arrived', formatDateTime(item.arrivedAt)],
            ['Delivered', item.deliveredAt ? formatDateTime(item.deliveredAt) : null],
          ]}
          loading={loading ? 1 : 0}
        />
      </Section>
      {full?.handoverId && (
        <Section title="Hand-over proof">
          <HandoverProof organizationId={organizationId} handoverId={full.handoverId} />
        </Section>
      )}
      <Section title="Storage Location">
        <p className={storageLabel(item) ? undefined : 'text-fg-subtle'}>{storageLabel(item) ?? 'Not stored'}</p>
      </Section>
      <Section title="Timeline">
        <Timeline organizationId={organizationId} id={item.id} />
      </Section>
      <div className="space-y-5">
        <Section title="Description">
          <Text value={full?.description} empty="No description" loading={loading} />
        </Section>
        <Section title="Notes">
          <Text value={full?.notes} empty="No notes" loading={loading} />
        </Section>
      </div>
      <Section title="Package Photo">
        <Thumbnail item={item} onView={onViewPhoto} />
      </Section>
      <Section title="Messages" className="sm:col-span-2 lg:col-span-3">
        <NotificationsTimeline organizationId={organizationId} id={item.id} updatedAt={full?.updatedAt} />
      </Section>
    </div>
  );
}
