import { z } from 'zod';
import { NotifyChannels } from './notify-channels';
import { Timestamp, optionalText } from './common';
import { LanguageCode } from './language-codes';
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
  /** The language of their messages and page (decision 066); null or absent: the organization's default. */
  language: z.preprocess((v) => (v === '' ? null : v), LanguageCode.nullable().optional()),
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
  /**
   * The channels the recipient wants to hear on, as they chose them on their own page (decisions
   * 032, 065; null: every channel offered); the desk sees it read-only ("Notified by") and never sets it.
   */
  notifyChannels: NotifyChannels,
  /** The language of their messages and page (decision 066); null: the organization's default. */
  language: LanguageCode.nullable(),
  /**
   * Which directory feed keeps the recipient (issue 43): 'scim' or 'roster', null when typed or
   * imported by hand. The desk cannot edit the fields the feed owns (DIRECTORY_OWNED_FIELDS).
   */
  managedBy: z.enum(['scim', 'roster']).nullable(),
  /** When the feed said they left (deactivated): the desk shows them as "Left". */
  leftAt: Timestamp.nullable(),
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

/** CSV import (admins): columns first name, last name, email, phone, unit, department, type, language. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;
export const IMPORT_TOO_LARGE = 'The file is larger than 2 MB';
export const RecipientImportBody = z.object({
  csv: z
    .string({ message: 'CSV content is required' })
    .min(1, 'The file is empty')
    .max(IMPORT_MAX_BYTES, IMPORT_TOO_LARGE),
  /** On commit: leave rows that duplicate an existing recipient (or an earlier row) out. */
  skipDuplicates: z.boolean().default(true),
});

export const RecipientImportRow = z.object({
  /** 1-based line in the file, counting the header. */
  line: z.number().int(),
  /** As the file has them: the type is any text until checked. */
  values: Recipient.pick({
    firstName: true,
    lastName: true,
    email: true,
    phone: true,
    unit: true,
    department: true,
  }).extend({
    recipientType: z.string(),
    /** The file's language column as written ('es-MX'); null when empty or absent (decision 066). */
    language: z.string().nullable().optional(),
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
