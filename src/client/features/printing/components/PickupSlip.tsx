import type { MailItem } from '@contract';
import { formatDateTime, humanize } from '@/lib/format';
import { itemReference, itemSlipContent } from '@/lib/printing';
import { cn } from '@/lib/cn';
import { ROLL_LENGTH_MM, type PrintFormat } from '../printFormats';
import { QrCode } from './QrCode';

function storage(item: MailItem): string {
  if (item.location) return `${item.location.name} · ${item.location.mailroomName}`;
  return item.mailroom?.name ?? 'Not stored';
}

function Fact({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="grid grid-cols-[17mm_1fr] gap-[2mm]">
      <dt className="text-neutral-600">{label}</dt>
      <dd className={cn('min-w-0 font-medium [overflow-wrap:anywhere]', mono && 'font-mono')}>{value}</dd>
    </div>
  );
}

/**
 * A pickup slip to sit on the parcel: whose it is, when it came and where it waits, and a QR of
 * the item (its id). Never the recipient's pickup code: the slip travels with the parcel, and the
 * code is the key to collect it (decision 031).
 */
export function PickupSlip({
  item,
  organizationName,
  format,
}: {
  item: MailItem;
  organizationName: string;
  format: PrintFormat;
}) {
  const sheet = format !== 'label62';
  const recipient = item.recipient ? `${item.recipient.firstName} ${item.recipient.lastName}`.trim() : 'No recipient';
  const reference = itemReference(item.id);
  return (
    <article
      aria-label={`Pickup slip for ${recipient}`}
      style={sheet ? undefined : { height: `${ROLL_LENGTH_MM.slips}mm` }}
      className={cn(
        'flex flex-col overflow-hidden bg-white text-[8pt] leading-snug text-black',
        sheet
          ? 'h-[125mm] border border-dashed border-neutral-400 p-[5mm] break-inside-avoid'
          : 'w-[62mm] p-[4mm] shadow-md ring-1 ring-black/5 break-after-page last:break-after-auto print:shadow-none print:ring-0',
      )}
    >
      <p className="flex justify-between gap-[2mm] border-b border-black pb-[1.5mm] text-[7pt] font-semibold tracking-wide uppercase">
        <span className="min-w-0 truncate">{organizationName}</span>
        <span className="shrink-0">Pickup slip</span>
      </p>
      <p className="mt-[2.5mm] text-[15pt] leading-tight font-bold [overflow-wrap:anywhere]">{recipient}</p>
      {item.recipient?.unit && <p className="text-[11pt] font-semibold">Unit {item.recipient.unit}</p>}
      <dl className="mt-[2.5mm] space-y-[1mm]">
        <Fact label="Arrived" value={formatDateTime(item.arrivedAt)} />
        <Fact label="Item" value={/^[a-z_]+$/.test(item.type) ? humanize(item.type) : item.type} />
        <Fact label="Tracking" value={item.trackingNumber ?? '—'} mono={Boolean(item.trackingNumber)} />
        <Fact label="Carrier" value={item.courierCompany ?? '—'} />
        <Fact label="Location" value={storage(item)} />
      </dl>
      <div className="mt-auto flex items-end gap-[3mm] pt-[2mm]">
        <QrCode
          value={itemSlipContent(item.id)}
          label={`QR code of item ${reference}`}
          className={sheet ? 'size-[30mm] shrink-0' : 'size-[24mm] shrink-0'}
        />
        <div className="min-w-0">
          <p className="text-neutral-600">Reference</p>
          <p className="font-mono text-[12pt] font-bold">{reference}</p>
        </div>
      </div>
    </article>
  );
}
