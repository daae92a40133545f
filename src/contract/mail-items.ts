import { z } from 'zod';
import { Id, Timestamp, isoDateParam, optionalText } from './common';
import { limitParam, offsetParam } from './pagination';
import { Recipient } from './recipients';

export const OVERDUE_HOURS = 72;
/** Statuses after which an item no longer occupies its storage location. */
export const HANDED_OVER_STATUSES = ['delivered', 'returned'] as const;
/** Waiting to be collected: logged for a recipient, not yet handed over or returned. */
export const WAITING_STATUSES = ['pending', 'notified'] as const;
/**
 * What every reader (History, item details, receipt, export, the recipient's page) says of a
 * delivered item whose collector was not recorded (issue 41 item 6, decision 048): a status
 * change to delivered records no collector, and no screen, message or file may supply one.
 */
export const COLLECTOR_NOT_RECORDED = 'Collector not recorded';

/** Who collected a delivered item, as recorded, else COLLECTOR_NOT_RECORDED; null when not delivered. */
export function collectorOf(item: { status: string; collectorName: string | null }): string | null {
  if (item.status !== 'delivered') return item.collectorName?.trim() || null;
  return item.collectorName?.trim() || COLLECTOR_NOT_RECORDED;
}

/** The storage choice of the intake form: a location id, or a whole mailroom with this prefix. */
export const MAILROOM_CHOICE_PREFIX = 'mailroom-';
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const PHOTO_TOO_LARGE = 'Photo is larger than 10 MB';

const optionalId = z.preprocess((v) => (v === '' ? null : v), Id.nullable().optional());

/**
 * How the desk chose an item's recipient (decision 047), recorded in the item's timeline: the
 * label reader named them (label), the clerk chose one of those who expect the tracking number
 * (expected), or the clerk picked them (clerk, the default). "expected" is recorded only when the
 * recipient really expects the number; otherwise the record says the clerk chose them.
 */
export const RECIPIENT_SOURCES = ['label', 'expected', 'clerk'] as const;
export type RecipientSource = (typeof RECIPIENT_SOURCES)[number];
export const RecipientSourceField = z.enum(RECIPIENT_SOURCES, {
  message: 'Recipient source must be label, expected or clerk',
});
/** How the timeline says each way the recipient was chosen ("Recipient chosen by the clerk"). */
export const RECIPIENT_CHOSEN: Record<RecipientSource, string> = {
  label: 'from the label',
  expected: 'from an expected package: they registered this tracking number',
  clerk: 'chosen by the clerk',
};
/** Added when a recipient chosen from the label or by the clerk also expects the number. */
export const RECIPIENT_ALSO_EXPECTED = 'they had registered this tracking number';

/** Spec §7 POST /api/mail-items; empty values arrive as null. */
export const CreateMailItemBody = z.object({
  /** One of the organization's packageTypes. */
  type: z
    .string({ message: 'Type is required' })
    .trim()
    .min(1, 'Type is required')
    .max(50, 'Type must be at most 50 characters'),
  recipientId: optionalId,
  /** How the recipient was chosen (decision 047); ignored without a recipient. */
  recipientSource: RecipientSourceField.optional(),
  locationId: optionalId,
  mailroomId: optionalId,
  trackingNumber: optionalText(255, 'Tracking number must be at most 255 characters'),
  sender: optionalText(255, 'Sender must be at most 255 characters'),
  senderAddress: optionalText(1000, 'Sender address must be at most 1000 characters'),
  description: optionalText(2000, 'Description must be at most 2000 characters'),
  courierCompany: optionalText(100, 'Courier company must be at most 100 characters'),
  /** The staff member who received the item at intake ("Received by"), not who collected it. */
  collectedByStaff: optionalText(255, 'Received by must be at most 255 characters'),
  collectorName: optionalText(255, 'Collector name must be at most 255 characters'),
  size: optionalText(50, 'Size must be at most 50 characters'),
  weight: optionalText(50, 'Weight must be at most 50 characters'),
  notes: optionalText(2000, 'Notes must be at most 2000 characters'),
  /** A data URL or bare base64 of a JPEG, PNG, WebP or GIF; at most 10 MB decoded. */
  photoData: z.string().max(15_000_000, PHOTO_TOO_LARGE).nullable().optional(),
});
export type CreateMailItemBody = z.input<typeof CreateMailItemBody>;

/** An Idempotency-Key header: 1 to 255 visible ASCII characters (decision 044). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_INVALID = 'The Idempotency-Key header must be 1 to 255 visible ASCII characters';
export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used for a different request. Send a new key for a new request.';
/** An If-Match header of an edit: the item's revision, quoted or not. */
export const IF_MATCH_INVALID = 'The If-Match header must be the item\'s revision, like "3"';
export const REVISION_CONFLICT = 'Someone else changed this item since you opened it.';

/** Spec §5 "Edit mail item": the create schema made partial, plus status. notifiedAt/deliveredAt are set by the server. */
export const UpdateMailItemBody = CreateMailItemBody.omit({ recipientSource: true })
  .partial()
  .extend({
    status: z.string().trim().min(1, 'Status is required').max(50, 'Status must be at most 50 characters').optional(),
    notifiedAt: z.unknown().optional(),
    deliveredAt: z.unknown().optional(),
    /** Remove the photo. */
    removePhoto: z.boolean().optional(),
  });
export type UpdateMailItemBody = z.input<typeof UpdateMailItemBody>;

/** The recipient as a mail item carries it: who and how to reach them. */
export const MailItemRecipient = Recipient.pick({
  id: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  unit: true,
  department: true,
});

export const MailItem = z.object({
  id: z.uuid(),
  organizationId: z.uuid(),
  recipientId: z.uuid().nullable(),
  locationId: z.uuid().nullable(),
  mailroomId: z.uuid().nullable(),
  trackingNumber: z.string().nullable(),
  type: z.string(),
  sender: z.string().nullable(),
  senderAddress: z.string().nullable(),
  courierCompany: z.string().nullable(),
  collectedByStaff: z.string().nullable(),
  collectorName: z.string().nullable(),
  description: z.string().nullable(),
  size: z.string().nullable(),
  weight: z.string().nullable(),
  status: z.string(),
  arrivedAt: Timestamp,
  notifiedAt: Timestamp.nullable(),
  deliveredAt: Timestamp.nullable(),
  notes: z.string().nullable(),
  /** URLs of the re-encoded photo and its thumbnail (never the bytes). */
  photoUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  createdBy: z.uuid().nullable(),
  /** The staff member who handed it over. */
  handedOverBy: z.uuid().nullable(),
  /** The proof of the hand-over (GET /api/handovers/{id}), when it was handed over with one. */
  handoverId: z.uuid().nullable(),
  /** Held at the recipient's request until this moment (the midnight after the date they chose); not overdue until then. */
  heldUntil: Timestamp.nullable(),
  /** The recipient's expected package it matched at intake (decision 033): the desk shows "Expected". */
  expectedPackageId: z.uuid().nullable(),
  /**
   * Its revision (decision 044): one more with every write. An edit sent with `If-Match: "<revision>"`
   * is refused with 409 (and the item as it is now) when the item moved on.
   */
  revision: z.number().int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  isOverdue: z.boolean(),
  recipient: MailItemRecipient.nullable(),
  location: z.object({ id: z.uuid(), name: z.string(), mailroomName: z.string() }).nullable(),
  mailroom: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});
export type MailItem = z.infer<typeof MailItem>;

/**
 * A row of the desk's lists (Mail Intake, Pending Pickups, History) as `view=summary` gives it:
 * what a row shows and its actions need. The details (sender's address, size, notes, who logged
 * it, ...) load with the item when a row is opened (GET /api/mail-items/{id}). Half the bytes of
 * a full item, and PostgreSQL builds it in about half the time (decision 026).
 */
export const MailItemSummary = MailItem.pick({
  id: true,
  recipientId: true,
  trackingNumber: true,
  type: true,
  sender: true,
  courierCompany: true,
  status: true,
  arrivedAt: true,
  deliveredAt: true,
  /** Who collected it: History's rows say so beside the hand-over's date (a column of the row, no join). */
  collectorName: true,
  photoUrl: true,
  thumbnailUrl: true,
  heldUntil: true,
  isOverdue: true,
  expectedPackageId: true,
  /** A row's own actions (status changes) name the revision they were made from. */
  revision: true,
}).extend({
  recipient: MailItemRecipient.pick({ id: true, firstName: true, lastName: true, unit: true }).nullable(),
  location: MailItem.shape.location,
  mailroom: MailItem.shape.mailroom,
});
export type MailItemSummary = z.infer<typeof MailItemSummary>;

/** 409 of an edit made from an older revision: the item as it is now, for the screen to compare. */
export const RevisionConflictReply = z.object({
  message: z.string(),
  code: z.literal('revision_conflict'),
  current: MailItem,
});
export type RevisionConflictReply = z.infer<typeof RevisionConflictReply>;

/** GET /api/mail-items (spec-decisions "Lists and filters"); the total is in X-Total-Count. */
export const MailItemListQuery = z
  .object({
    status: z.string().trim().max(500).optional(),
    type: z.string().trim().max(50).optional(),
    recipientId: Id.optional(),
    locationId: Id.optional(),
    dateFrom: isoDateParam('dateFrom must be an ISO date-time').optional(),
    dateTo: isoDateParam('dateTo must be an ISO date-time').optional(),
    search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
    /** `desc` (newest first) by default; Pending Pickups asks `asc`: overdue first, then oldest. */
    order: z.enum(['asc', 'desc'], { message: "order must be 'asc' or 'desc'" }).default('desc'),
    /** `full` items (the default) or `summary` rows, as the desk's lists ask (MailItemSummary). */
    view: z.enum(['full', 'summary'], { message: "view must be 'full' or 'summary'" }).default('full'),
    limit: limitParam(500, 100),
    offset: offsetParam,
  })
  .refine((q) => !q.dateFrom || !q.dateTo || Date.parse(q.dateFrom) <= Date.parse(q.dateTo), {
    message: 'dateFrom must not be after dateTo',
    path: ['dateFrom'],
  });

/** GET /api/mail-items/pending-summary: the Pending Pickups counters, over all pending items. */
export const PendingSummary = z.object({
  totalPending: z.number().int(),
  overdue: z.number().int(),
  notified: z.number().int(),
});
export type PendingSummary = z.infer<typeof PendingSummary>;

export const MailItemHistoryEntry = z.object({
  id: z.uuid(),
  mailItemId: z.uuid(),
  action: z.string(),
  previousStatus: z.string().nullable(),
  newStatus: z.string().nullable(),
  notes: z.string().nullable(),
  performedBy: z
    .object({ id: z.uuid(), firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.string() })
    .nullable(),
  createdAt: Timestamp,
});
export type MailItemHistoryEntry = z.infer<typeof MailItemHistoryEntry>;

/**
 * An item's timeline a page at a time, oldest first (issue 41, item 7): an item the recipient's
 * page or a script touched hundreds of times is not answered whole. The total is in X-Total-Count.
 */
export const MAIL_ITEM_HISTORY_PAGE = 50;
export const MAIL_ITEM_HISTORY_MAX_PAGE = 200;
export const MailItemHistoryQuery = z.object({
  limit: limitParam(MAIL_ITEM_HISTORY_MAX_PAGE, MAIL_ITEM_HISTORY_PAGE),
  offset: offsetParam,
});

export const PACKAGE_LIMIT_MESSAGE =
  'Your organization has reached its monthly package limit. Upgrade your plan to log more packages.';
export const PHOTO_REQUIRED_MESSAGE = 'A photo is required for every mail item';

/** The longest a recipient may ask the desk to hold an item, in days from today (decision 035). */
export const MAX_HOLD_DAYS = 30;

/**
 * PUT /api/portal/items/{id}/hold: hold a waiting item until the end of a date (the organization's
 * calendar), at most MAX_HOLD_DAYS ahead; null lifts the hold.
 */
export const ItemHoldBody = z.object({
  until: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the date to hold the item until (YYYY-MM-DD)')
    .nullable(),
});
export type ItemHoldBody = z.infer<typeof ItemHoldBody>;

/**
 * An item logged without a recipient (decision 041) waits in this status, out of Pending Pickups,
 * the overdue counters and reminders, until the desk picks its recipient.
 */
export const NEEDS_RECIPIENT = 'needs_recipient';

/** POST /api/mail-items/needs-recipient: an intake without a recipient (photo, tracking number, courier, storage as usual). */
export const LogWithoutRecipientBody = CreateMailItemBody.omit({ recipientId: true, recipientSource: true }).strict();
export type LogWithoutRecipientBody = z.input<typeof LogWithoutRecipientBody>;

/** POST /api/mail-items/{id}/resolve: the recipient the item is for; it then follows the normal flow. */
export const ResolveRecipientBody = z.object({
  recipientId: z.uuid({ message: 'Choose a recipient' }),
  /** "expected" when the clerk chose one of those who expect its tracking number (decision 047). */
  recipientSource: RecipientSourceField.optional(),
});
export type ResolveRecipientBody = z.infer<typeof ResolveRecipientBody>;

/** A row of the "Needs a recipient" list: what the desk needs to recognise the item (the photo by URL). */
export const NeedsRecipientItem = z.object({
  id: z.uuid(),
  trackingNumber: z.string().nullable(),
  courierCompany: z.string().nullable(),
  type: z.string(),
  sender: z.string().nullable(),
  arrivedAt: Timestamp,
  photoUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  location: z.object({ id: z.uuid(), name: z.string(), mailroomName: z.string() }).nullable(),
  /**
   * The recipients who expect its tracking number (decision 047), oldest registration first: the
   * desk offers them when resolving; none is chosen by itself.
   */
  expectedBy: z.array(
    z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string(), unit: z.string().nullable() }),
  ),
  /** Who logged it (null when their account is gone). */
  loggedBy: z
    .object({ id: z.uuid(), firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.string() })
    .nullable(),
});
export type NeedsRecipientItem = z.infer<typeof NeedsRecipientItem>;

/** GET /api/mail-items/needs-recipient/count: the nav badge. */
export const NeedsRecipientCount = z.object({ count: z.number().int() });
export type NeedsRecipientCount = z.infer<typeof NeedsRecipientCount>;

export const RESOLVE_NOT_NEEDED = 'This item already has its recipient. Refresh to see it.';
export const NEEDS_RECIPIENT_FIRST =
  'This item has no recipient yet. Choose one under Needs a recipient before changing its status.';

/** GET /api/mail-items/needs-recipient: pages of 50 (the total is in X-Total-Count). */
export const NeedsRecipientListQuery = z.object({ offset: offsetParam });
