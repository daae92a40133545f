import type { MailItem, MailItemSummary, UpdateMailItemBody } from '@contract';
// relative, so the unit test (no path aliases in vitest.config) can load it
import { formatDateTime, humanize } from '../../lib/format';

/** As mailItemFormat's typeLabel (which the unit test cannot load): "certified_mail" -> "Certified Mail". */
const typeLabel = (type: string) => (/^[a-z_]+$/.test(type) ? humanize(type) : type);

/** What a clerk saw of an item: a list's row or the full item. */
export type SeenItem = MailItemSummary | MailItem;

/** One field someone else changed, in words a clerk reads. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

const person = (r: { firstName: string; lastName: string } | null | undefined) =>
  r ? `${r.firstName} ${r.lastName}`.trim() : 'No recipient';
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : '—');
const when = (value: string | null | undefined) => (value ? formatDateTime(value) : '—');

/** The fields a clerk recognises, how each reads; only those both versions carry are compared. */
const FIELDS: Array<[label: string, key: keyof MailItem, show: (item: SeenItem) => string]> = [
  ['Status', 'status', (i) => humanize(i.status)],
  ['Recipient', 'recipient', (i) => person(i.recipient)],
  ['Type', 'type', (i) => typeLabel(i.type)],
  ['Tracking number', 'trackingNumber', (i) => text(i.trackingNumber)],
  ['Sender', 'sender', (i) => text(i.sender)],
  ['Courier', 'courierCompany', (i) => text(i.courierCompany)],
  [
    'Storage',
    'location',
    (i) => (i.location ? `${i.location.name} · ${i.location.mailroomName}` : (i.mailroom?.name ?? '—')),
  ],
  ['Collected by', 'collectorName', (i) => text(i.collectorName)],
  ['Description', 'description', (i) => text((i as Partial<MailItem>).description)],
  ['Notes', 'notes', (i) => text((i as Partial<MailItem>).notes)],
  ['Held until', 'heldUntil', (i) => when(i.heldUntil)],
  ['Photo', 'photoUrl', (i) => (i.photoUrl ? 'A photo' : 'No photo')],
];

/** What someone else changed between what the clerk saw and the item now, field by field. */
export function changesBetween(seen: SeenItem, current: MailItem): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, key, show] of FIELDS) {
    if (!(key in seen)) continue;
    const before = show(seen);
    const after = show(current);
    if (before !== after) changes.push({ field, before, after });
  }
  return changes;
}

/** The fields the clerk's own change sets, in the same words. */
export function describeChange(body: UpdateMailItemBody): string[] {
  const said: string[] = [];
  if (body.status) said.push(`Status: ${humanize(body.status)}`);
  if (body.recipientId !== undefined) said.push(body.recipientId ? 'Recipient: the one you chose' : 'Recipient: none');
  if (body.type) said.push(`Type: ${typeLabel(body.type)}`);
  if (body.trackingNumber !== undefined) said.push(`Tracking number: ${text(body.trackingNumber)}`);
  if (body.sender !== undefined) said.push(`Sender: ${text(body.sender)}`);
  if (body.description !== undefined) said.push(`Description: ${text(body.description)}`);
  if (body.collectorName) said.push(`Collected by: ${body.collectorName}`);
  return said;
}
