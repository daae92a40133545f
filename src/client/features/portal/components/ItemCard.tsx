import type { PortalItem } from '@contract';
import { COLLECTOR_NOT_RECORDED, itemTypeLabel, itemTypeNoun } from '@contract';
import { MapPin, Package } from 'lucide-react';
import type { ReactNode } from 'react';
import { HeldBadge, MailStatusBadge } from '@/components/StatusBadge';
import { formatDateTime, humanize } from '@/lib/format';

/**
 * When and by whom a past item left the desk, as recorded: a delivery without a recorded collector
 * says so rather than "collected" (issue 41 item 6).
 */
function handedOver(item: PortalItem): string {
  const at = item.deliveredAt ? formatDateTime(item.deliveredAt) : '';
  if (item.collectorName) return `collected by ${item.collectorName} ${at}`;
  if (item.status === 'delivered') return `marked delivered ${at} · ${COLLECTOR_NOT_RECORDED}`;
  return `${humanize(item.status).toLowerCase()} ${at}`;
}

/** One of the recipient's items: its photo, kind, status, shelf and story; `children` act on it. */
export function ItemCard({ item, children }: { item: PortalItem; children?: ReactNode }) {
  return (
    <li className="flex gap-3 rounded-lg border border-line-subtle p-3" data-testid="portal-item">
      {item.hasPhoto ? (
        <img
          src={`/api/portal/items/${item.id}/photo/thumbnail`}
          alt={`Photo of the ${itemTypeNoun(item.type)}`}
          className="size-16 shrink-0 rounded-md object-cover"
          loading="lazy"
        />
      ) : (
        <div className="flex size-16 shrink-0 items-center justify-center rounded-md bg-surface-muted text-fg-subtle">
          <Package aria-hidden className="size-6" />
        </div>
      )}
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-fg">{itemTypeLabel(item.type)}</span>
          <MailStatusBadge status={item.status} />
          <HeldBadge heldUntil={item.heldUntil} />
        </div>
        {item.location && (
          <p className="flex items-center gap-1 text-sm text-fg-secondary">
            <MapPin aria-hidden className="size-3.5" /> {item.location}
          </p>
        )}
        <p className="text-xs text-fg-subtle">
          Arrived {formatDateTime(item.arrivedAt)}
          {item.sender ? ` · from ${item.sender}` : ''}
          {item.deliveredAt ? ` · ${handedOver(item)}` : ''}
        </p>
        {item.trackingNumber && <p className="font-mono text-xs break-all text-fg-subtle">{item.trackingNumber}</p>}
        {children}
      </div>
    </li>
  );
}
