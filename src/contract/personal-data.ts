import { z } from 'zod';
import { Timestamp } from './common';
import { ExpectedPackage } from './expected-packages';
import { Handover } from './handovers';
import { MailItem, MailItemHistoryEntry } from './mail-items';
import { Recipient } from './recipients';

/**
 * Personal data on request (decision 015). An erased recipient keeps their row under this name,
 * with every other personal field emptied, so history and reports stay whole.
 */
export const ERASED_RECIPIENT = { firstName: 'Erased', lastName: 'recipient' } as const;

/** The download name of GET /api/recipients/:id/personal-data. */
export const personalDataFileName = (recipientId: string) => `recipient-${recipientId}-personal-data.json`;

export const PersonalDataPhoto = z.object({
  id: z.uuid(),
  contentType: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  createdAt: Timestamp,
});

/** A mail item addressed to the recipient: its fields, the photo by id and size (never its bytes). */
export const PersonalDataMailItem = z.object({
  ...MailItem.pick({
    id: true,
    type: true,
    status: true,
    trackingNumber: true,
    sender: true,
    senderAddress: true,
    courierCompany: true,
    description: true,
    size: true,
    weight: true,
    notes: true,
    collectorName: true,
  }).shape,
  /** Names, not the rows: the storage location's and the mailroom's. */
  location: z.string().nullable(),
  mailroom: z.string().nullable(),
  ...MailItem.pick({ arrivedAt: true, notifiedAt: true, deliveredAt: true, createdAt: true, updatedAt: true }).shape,
  photo: PersonalDataPhoto.nullable(),
});

/** A history entry of one of their items (deleted items' entries included); staff are not named. */
export const PersonalDataHistoryEntry = MailItemHistoryEntry.omit({ performedBy: true });

/** An email, SMS or Slack message to the recipient: where it went, what became of it and when. */
export const PersonalDataNotification = z.object({
  id: z.uuid(),
  mailItemId: z.uuid().nullable(),
  channel: z.enum(['email', 'sms', 'slack']),
  event: z.string(),
  /** arrival, reminder or receipt. */
  kind: z.string().nullable(),
  address: z.string().nullable(),
  status: z.string(),
  attempts: z.number().int(),
  skipReason: z.string().nullable(),
  createdAt: Timestamp,
  sentAt: Timestamp.nullable(),
});

/**
 * A hand-over to or for them (decision 031): who collected, how they were identified, why a
 * non-proxy collected; whether a signature and a photo are held (never the bytes); staff unnamed.
 */
export const PersonalDataHandover = Handover.pick({
  id: true,
  collectorName: true,
  identifiedBy: true,
  proxyReason: true,
  createdAt: true,
  itemIds: true,
}).extend({ signed: z.boolean(), photographed: z.boolean() });

/** Someone they allow to collect for them. */
export const PersonalDataProxy = z.object({ name: z.string(), createdAt: Timestamp });

/** GET /api/recipients/:id/personal-data (admins): everything the organization holds about one recipient. */
export const RecipientPersonalData = z.object({
  format: z.literal('pigeonhole.recipient-personal-data/1'),
  exportedAt: Timestamp,
  organization: z.object({ id: z.uuid(), name: z.string() }),
  recipient: Recipient.extend({ notificationsOptOutAt: Timestamp.nullable() }),
  mailItems: z.array(PersonalDataMailItem),
  history: z.array(PersonalDataHistoryEntry),
  notifications: z.array(PersonalDataNotification),
  handovers: z.array(PersonalDataHandover),
  proxies: z.array(PersonalDataProxy),
  /** The tracking numbers they told the desk to expect (decision 033). */
  expectedPackages: z.array(ExpectedPackage),
});
export type RecipientPersonalData = z.infer<typeof RecipientPersonalData>;

export const ERASE_CONFIRM_MESSAGE = 'Confirm the erasure by sending {"confirm": true}';

/** POST /api/recipients/:id/erase (admins): the body says the caller means it. */
export const EraseRecipientBody = z.object(
  { confirm: z.literal(true, { message: ERASE_CONFIRM_MESSAGE }) },
  { message: ERASE_CONFIRM_MESSAGE },
);
export type EraseRecipientBody = z.input<typeof EraseRecipientBody>;

/**
 * What an erasure changed, row by row. Erasing again answers 200 with zeros (nothing was left to
 * change): the call is idempotent.
 */
export const EraseRecipientResult = z.object({
  recipient: Recipient,
  counts: z.object({
    /** 1 when the recipient row was anonymised now, 0 when it already was. */
    recipient: z.number().int(),
    /** Mail items whose copies (collector, notes, description, sender address) were cleared. */
    mailItems: z.number().int(),
    historyEntries: z.number().int(),
    /** Notification rows whose address, message or error text was cleared. */
    notifications: z.number().int(),
    /** Of those, messages still waiting to go out, now skipped. */
    notificationsCancelled: z.number().int(),
    photosDeleted: z.number().int(),
    /**
     * Items addressed to someone else (or no one) whose collector, sender, notes, description or
     * sender address named them (their full name, email or phone), now "[erased]" there.
     */
    otherMailItems: z.number().int(),
    /** History entries of those other items that named them ("Collected by …"). */
    otherHistoryEntries: z.number().int(),
    /** Messages about other items whose body or error text named them. */
    otherNotifications: z.number().int(),
    /** Hand-overs of their items: the collector's name and the reason cleared, signature and photo deleted. */
    handovers: z.number().int(),
    /** Hand-overs of other people's items that named them as collector or in the reason. */
    otherHandovers: z.number().int(),
    /** People they allowed to collect for them, now off the list. */
    proxies: z.number().int(),
    /** Entries on other recipients' lists of proxies that named them, deleted. */
    otherProxies: z.number().int(),
    /** Replies stored for idempotency keys (replayed for a day) that held their data, scrubbed. */
    idempotentReplies: z.number().int(),
    /** Tracking numbers they expected, deleted. */
    expectedPackages: z.number().int(),
    /** Sign-in links and signed-in sessions of their page, ended. */
    pageAccess: z.number().int(),
    /**
     * Roster runs that named them (decision 061): a waiting preview discarded (the run marked
     * failed, to be run again), row errors' values replaced by "[erased]".
     */
    rosterRuns: z.number().int(),
  }),
});
export type EraseRecipientResult = z.infer<typeof EraseRecipientResult>;
