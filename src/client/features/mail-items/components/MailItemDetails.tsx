import type { MailItem, MailItemHistoryEntry } from '@contract';
import { ImageOff, Maximize2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { displayName, formatDateTime, humanize } from '@/lib/format';
import { useErrorToast } from '@/lib/useErrorToast';
import { useMailItemHistory } from '../api/mailItemHistory';
import { recipientFullName, storageLabel } from '../mailItemFormat';
import { NotificationsTimeline } from './NotificationsTimeline';

function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section className={className}>
      <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-fg-subtle uppercase">{title}</h3>
      <div className="text-sm text-fg-secondary">{children}</div>
    </section>
  );
}

function Facts({ rows }: { rows: [string, string | null | undefined][] }) {
  const shown = rows.filter(([, value]) => value);
  if (shown.length === 0) return <p className="text-fg-subtle">Not recorded</p>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
      {shown.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-fg-subtle">{label}</dt>
          <dd className="min-w-0 break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function entryText(entry: MailItemHistoryEntry) {
  if (entry.action === 'created') return 'Logged';
  if (entry.previousStatus && entry.newStatus && entry.previousStatus !== entry.newStatus) {
    return `${humanize(entry.previousStatus)} → ${humanize(entry.newStatus)}`;
  }
  return humanize(entry.action);
}

function Timeline({ organizationId, item }: { organizationId: string; item: MailItem }) {
  const history = useMailItemHistory(organizationId, item.id, true);
  useErrorToast(history.error, 'Failed to fetch history');
  if (history.isPending) {
    return (
      <div className="space-y-2" aria-busy>
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-4 w-2/3" />
      </div>
    );
  }
  if (!history.data?.length) return <p className="text-fg-subtle">No history recorded</p>;
  return (
    <ol className="space-y-2 border-l border-line pl-4">
      {history.data.map((entry) => (
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
        </li>
      ))}
    </ol>
  );
}

function Thumbnail({ item, onView }: { item: MailItem; onView: () => void }) {
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

interface MailItemDetailsProps {
  organizationId: string;
  item: MailItem;
  onViewPhoto: () => void;
}

/** Spec §2: recipient details, timeline, description, notes, photo, package info and storage. */
export function MailItemDetails({ organizationId, item, onViewPhoto }: MailItemDetailsProps) {
  const r = item.recipient;
  return (
    <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      <Section title="Recipient">
        {r ? (
          <Facts
            rows={[
              ['Name', recipientFullName(item)],
              ['Unit', r.unit],
              ['Department', r.department],
              ['Email', r.email],
              ['Phone', r.phone],
            ]}
          />
        ) : (
          <p className="text-fg-subtle">Unknown Recipient</p>
        )}
      </Section>
      <Section title="Package Info">
        <Facts
          rows={[
            ['Tracking', item.trackingNumber],
            ['Courier', item.courierCompany],
            ['Sender', item.sender],
            ['Collected by', item.collectedByStaff],
            ['Collector', item.collectorName],
            ['Arrived', formatDateTime(item.arrivedAt)],
            ['Delivered', item.deliveredAt ? formatDateTime(item.deliveredAt) : null],
          ]}
        />
      </Section>
      <Section title="Storage Location">
        <p className={storageLabel(item) ? undefined : 'text-fg-subtle'}>{storageLabel(item) ?? 'Not stored'}</p>
      </Section>
      <Section title="Timeline">
        <Timeline organizationId={organizationId} item={item} />
      </Section>
      <div className="space-y-5">
        <Section title="Description">
          <p className={item.description ? 'whitespace-pre-line' : 'text-fg-subtle'}>
            {item.description ?? 'No description'}
          </p>
        </Section>
        <Section title="Notes">
          <p className={item.notes ? 'whitespace-pre-line' : 'text-fg-subtle'}>{item.notes ?? 'No notes'}</p>
        </Section>
      </div>
      <Section title="Package Photo">
        <Thumbnail item={item} onView={onViewPhoto} />
      </Section>
      <Section title="Messages" className="sm:col-span-2 lg:col-span-3">
        <NotificationsTimeline organizationId={organizationId} item={item} />
      </Section>
    </div>
  );
}
