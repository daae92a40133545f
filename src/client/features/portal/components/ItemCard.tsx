import type { PortalItem } from '@contract';
import { humanizeKey, itemTypeLabel, isStoredKey } from '@contract';
import { MapPin, Package } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { isHeld } from '@/lib/format';
import { mailStatusStyle } from '@/lib/statusStyles';
import { usePortalI18n } from '../i18n';

type I18n = ReturnType<typeof usePortalI18n>;

/** A status in the page's language: the built-in ones from the catalogue, a custom one as the desk wrote it. */
const statusLabel = ({ t }: I18n, status: string) =>
  t('item.status', { status, custom: isStoredKey(status) ? humanizeKey(status) : status });

/**
 * When and by whom a past item left the desk, as recorded: a delivery without a recorded collector
 * says so rather than "collected" (issue 41 item 6).
 */
function handedOver(i18n: I18n, item: PortalItem): string {
  const { t } = i18n;
  const date = item.deliveredAt ? i18n.dateTime(item.deliveredAt) : '';
  if (item.collectorName) return t('item.collectedBy', { name: item.collectorName, date });
  if (item.status === 'delivered') return t('item.markedDelivered', { date });
  return t('item.otherEnd', { status: statusLabel(i18n, item.status).toLowerCase(), date });
}

/** The last day of a hold: the server keeps the moment it ends, the midnight after that day. */
const holdDay = (i18n: I18n, heldUntil: string) => i18n.day(new Date(Date.parse(heldUntil) - 1));

/** One of the recipient's items: its photo, kind, status, shelf and story; `children` act on it. */
export function ItemCard({ item, children }: { item: PortalItem; children?: ReactNode }) {
  const i18n = usePortalI18n();
  const { t } = i18n;
  // The type's label in the page's language (decisions 063, 066); an admin's own type as written.
  const type = t('item.type', { type: item.type, custom: itemTypeLabel(item.type) });
  return (
    <li className="flex gap-3 rounded-lg border border-line-subtle p-3" data-testid="portal-item">
      {item.hasPhoto ? (
        <img
          src={`/api/portal/items/${item.id}/photo/thumbnail`}
          alt={t('item.photoAlt', { type })}
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
          <span className="font-medium text-fg">{type}</span>
          <Badge tone={mailStatusStyle(item.status).tone} data-status={item.status}>
            {statusLabel(i18n, item.status)}
          </Badge>
          {isHeld(item.heldUntil) && (
            <Badge tone="indigo">{t('item.heldUntil', { day: holdDay(i18n, item.heldUntil) })}</Badge>
          )}
        </div>
        {item.location && (
          <p className="flex items-center gap-1 text-sm text-fg-secondary">
            <MapPin aria-hidden className="size-3.5" /> {item.location}
          </p>
        )}
        <p className="text-xs text-fg-subtle">
          {t('item.arrived', { date: i18n.dateTime(item.arrivedAt) })}
          {item.sender ? ` · ${t('item.from', { sender: item.sender })}` : ''}
          {item.deliveredAt ? ` · ${handedOver(i18n, item)}` : ''}
        </p>
        {item.trackingNumber && <p className="font-mono text-xs break-all text-fg-subtle">{item.trackingNumber}</p>}
        {children}
      </div>
    </li>
  );
}
