import type { Location, MailItemSummary, Mailroom, OrganizationSettings } from '@contract';
import { MAILROOM_CHOICE_PREFIX } from '@contract';
import { humanize } from '@/lib/format';

/** Spec §9: package types to offer when the organization's settings are missing (intake adds express). */
export const DEFAULT_PACKAGE_TYPES = ['package', 'letter', 'certified_mail', 'express'];
export const DEFAULT_COURIERS = ['FedEx', 'UPS', 'DHL', 'USPS', 'Amazon Delivery', 'Other'];
export const DEFAULT_STATUSES = ['pending', 'notified', 'delivered', 'returned'];

export function packageTypes(settings: OrganizationSettings | undefined) {
  return settings?.packageTypes.length ? settings.packageTypes : DEFAULT_PACKAGE_TYPES;
}

export function courierCompanies(settings: OrganizationSettings | undefined) {
  return settings?.courierCompanies.length ? settings.courierCompanies : DEFAULT_COURIERS;
}

export function statuses(settings: OrganizationSettings | undefined) {
  return settings?.customStatuses.length ? settings.customStatuses : DEFAULT_STATUSES;
}

/** "letter" -> "Letter", "certified_mail" -> "Certified Mail"; custom types keep their spelling. */
export function typeLabel(type: string) {
  return /^[a-z_]+$/.test(type) ? humanize(type) : type;
}

export function recipientFullName(item: Pick<MailItemSummary, 'recipient'>) {
  return item.recipient ? `${item.recipient.firstName} ${item.recipient.lastName}`.trim() : 'Unknown Recipient';
}

/** "Shelf A · Lobby Mailroom", "Lobby Mailroom", or null when the item has no storage. */
export function storageLabel(item: Pick<MailItemSummary, 'location' | 'mailroom'>) {
  if (item.location) return `${item.location.name} · ${item.location.mailroomName}`;
  if (item.mailroom) return item.mailroom.name;
  return null;
}

export interface StorageOption {
  value: string;
  label: string;
  full?: boolean;
}

/** A whole mailroom (`mailroom-<id>`) followed by its active locations with their fill level. */
export function storageOptions(mailrooms: Mailroom[] | undefined, locations: Location[] | undefined): StorageOption[] {
  const options: StorageOption[] = [];
  const rooms = (mailrooms ?? []).filter((room) => room.isActive);
  const known = new Set(rooms.map((room) => room.id));
  for (const room of rooms) {
    options.push({ value: `${MAILROOM_CHOICE_PREFIX}${room.id}`, label: `${room.name} (whole mailroom)` });
    for (const location of locations ?? []) {
      if (location.mailroomId !== room.id || !location.isActive) continue;
      options.push(locationOption(location));
    }
  }
  for (const location of locations ?? []) {
    if (!known.has(location.mailroomId) && location.isActive) options.push(locationOption(location));
  }
  return options;
}

function locationOption(location: Location): StorageOption {
  const fill = `${location.currentCount}/${location.capacity}`;
  return {
    value: location.id,
    label: `${location.name} · ${location.mailroomName} (${location.isFull ? `full, ${fill}` : fill})`,
    full: location.isFull,
  };
}

/** Spec §7: a `mailroom-` choice is sent as mailroomId with locationId null, else as locationId. */
export function storageFields(choice: string): { locationId: string | null; mailroomId: string | null } {
  if (!choice || choice === NO_STORAGE) return { locationId: null, mailroomId: null };
  if (choice.startsWith(MAILROOM_CHOICE_PREFIX)) {
    return { locationId: null, mailroomId: choice.slice(MAILROOM_CHOICE_PREFIX.length) };
  }
  return { locationId: choice, mailroomId: null };
}

/** The select's "nothing chosen" value (a Radix select item cannot be empty). */
export const NO_STORAGE = 'none';
