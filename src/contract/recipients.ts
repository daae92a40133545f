import { z } from 'zod';
import { Timestamp, optionalText } from './common';
import { booleanParam, limitParam, offsetParam } from './pagination';

export const RECIPIENT_TYPES = ['guest', 'employee', 'resident'] as const;
export const RecipientType = z.enum(RECIPIENT_TYPES, { message: 'Recipient type must be guest, employee or resident' });

const nameField = (label: 'First name' | 'Last name') =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be less than 100 characters`);

const recipientFields = z.object({
  firstName: nameField('First name'),
  lastName: nameField('Last name'),
  email: z.preprocess(
    (v) =>
      v === null || (typeof v === 'string' && v.trim() === '')
        ? null
        : typeof v === 'string'
          ? v.trim().toLowerCase()
          : v,
    z.email('Invalid email format').max(255, 'Email must be less than 255 characters').nullable().optional(),
  ),
  phone: optionalText(50, 'Phone must be less than 50 characters'),
  unit: optionalText(100, 'Unit must be less than 100 characters'),
  department: optionalText(255, 'Department must be less than 255 characters'),
  recipientType: RecipientType,
  isActive: z.boolean().optional(),
});

/** Spec §5 "Recipient": the schema is shared with the server. */
export const RecipientBody = recipientFields.extend({ recipientType: RecipientType.default('guest') });
export type RecipientBody = z.input<typeof RecipientBody>;

/**
 * PUT accepts any subset, e.g. only `{isActive}` for the activate/deactivate toggle. Built from
 * the fields without defaults: zod keeps defaults through .partial(), which would reset them.
 */
export const UpdateRecipientBody = recipientFields.partial();

export const Recipient = z.object({
  id: z.uuid(),
  organizationId: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  unit: z.string().nullable(),
  department: z.string().nullable(),
  recipientType: RecipientType,
  isActive: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Recipient = z.infer<typeof Recipient>;

/** GET /api/recipients: `search` matches name, email, unit and department; ordered by last, first name. */
export const RecipientListQuery = z.object({
  search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
  active: booleanParam.optional(),
  limit: limitParam(500, 100),
  offset: offsetParam,
});

/** GET /api/recipients/summary: the Total Recipients card. */
export const RecipientSummary = z.object({ total: z.number().int(), active: z.number().int() });

/** CSV import (admins): columns first name, last name, email, phone, unit, department, type. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;
export const RecipientImportBody = z.object({
  csv: z
    .string({ message: 'CSV content is required' })
    .min(1, 'The file is empty')
    .max(IMPORT_MAX_BYTES, 'The file is larger than 2 MB'),
  /** On commit: leave rows that duplicate an existing recipient (or an earlier row) out. */
  skipDuplicates: z.boolean().default(true),
});

export const RecipientImportRow = z.object({
  /** 1-based line in the file, counting the header. */
  line: z.number().int(),
  values: z.object({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    unit: z.string().nullable(),
    department: z.string().nullable(),
    recipientType: z.string(),
  }),
  errors: z.array(z.string()),
  /** Why the row duplicates another: an existing recipient (same email, or same name and unit) or an earlier line. */
  duplicate: z
    .object({
      kind: z.enum(['existing', 'file']),
      reason: z.string(),
      recipientId: z.uuid().nullable(),
      line: z.number().int().nullable(),
    })
    .nullable(),
});
export type RecipientImportRow = z.infer<typeof RecipientImportRow>;

export const RecipientImportPreview = z.object({
  rows: z.array(RecipientImportRow),
  summary: z.object({
    total: z.number().int(),
    valid: z.number().int(),
    invalid: z.number().int(),
    duplicates: z.number().int(),
  }),
});
export type RecipientImportPreview = z.infer<typeof RecipientImportPreview>;

export const RecipientImportResult = z.object({
  created: z.number().int(),
  skippedDuplicates: z.number().int(),
  invalid: z.number().int(),
});
export type RecipientImportResult = z.infer<typeof RecipientImportResult>;

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
  id: z.uuid(),
  type: z.string(),
  status: z.string(),
  trackingNumber: z.string().nullable(),
  sender: z.string().nullable(),
  senderAddress: z.string().nullable(),
  courierCompany: z.string().nullable(),
  description: z.string().nullable(),
  size: z.string().nullable(),
  weight: z.string().nullable(),
  notes: z.string().nullable(),
  collectorName: z.string().nullable(),
  location: z.string().nullable(),
  mailroom: z.string().nullable(),
  arrivedAt: Timestamp,
  notifiedAt: Timestamp.nullable(),
  deliveredAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  photo: PersonalDataPhoto.nullable(),
});

/** A history entry of one of their items (deleted items' entries included); staff are not named. */
export const PersonalDataHistoryEntry = z.object({
  id: z.uuid(),
  mailItemId: z.uuid(),
  action: z.string(),
  previousStatus: z.string().nullable(),
  newStatus: z.string().nullable(),
  notes: z.string().nullable(),
  createdAt: Timestamp,
});

/** An email or SMS to the recipient: where it went, what became of it and when. */
export const PersonalDataNotification = z.object({
  id: z.uuid(),
  mailItemId: z.uuid().nullable(),
  channel: z.enum(['email', 'sms']),
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

/** GET /api/recipients/:id/personal-data (admins): everything the organization holds about one recipient. */
export const RecipientPersonalData = z.object({
  format: z.literal('pigeonhole.recipient-personal-data/1'),
  exportedAt: Timestamp,
  organization: z.object({ id: z.uuid(), name: z.string() }),
  recipient: Recipient.extend({ notificationsOptOutAt: Timestamp.nullable() }),
  mailItems: z.array(PersonalDataMailItem),
  history: z.array(PersonalDataHistoryEntry),
  notifications: z.array(PersonalDataNotification),
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
  }),
});
export type EraseRecipientResult = z.infer<typeof EraseRecipientResult>;
