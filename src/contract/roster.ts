import { z } from 'zod';
import { Timestamp } from './common';
import { limitParam, offsetParam } from './pagination';

/**
 * The resident roster (issue 43 section 3, decision 061): a CSV fetched on a schedule from an
 * HTTPS URL or an SFTP server, read with a saved column mapping, diffed against the recipients
 * the roster keeps, applied at once or after an admin approves the preview.
 */

export const ROSTER_MAX_ROWS = 50_000;
export const ROSTER_MAX_BYTES = 20 * 1024 * 1024;
export const ROSTER_MESSAGES = {
  sourceNotFound: 'Roster source not found',
  runNotFound: 'Roster run not found',
  notAwaiting: 'This run is not waiting for approval',
  superseded: 'A later run of this source has been applied since: run it again for a fresh preview',
  running: 'A run of this source is under way',
  httpsOnly: 'The roster URL must use HTTPS',
  privateTarget:
    'The roster URL or host is not a public address (private, loopback and link-local addresses are refused)',
  badCron: 'The schedule is not a valid cron expression (five fields, e.g. "0 3 * * *")',
  secretNeeded: 'A password or private key is required for SFTP',
  hostKeyChanged: (seen: string, expected: string) =>
    `The SFTP server presented the host key ${seen}, not ${expected} as before: nothing was read. If the server was really given a new key, enter it (or clear the field to keep the next one) in Settings -> Roster.`,
  previewDiscarded:
    'The preview was discarded because a recipient in it was erased: run the roster again for a new preview',
} as const;

const columnName = z
  .string()
  .trim()
  .min(1, 'A column name is required')
  .max(100, 'A column name is at most 100 characters');

/**
 * Which CSV column fills which field, by the column's header. `externalId`, `firstName` and
 * `lastName` are required; the others are read when mapped (a field left out is empty).
 */
export const RosterMapping = z.object({
  externalId: columnName,
  firstName: columnName,
  lastName: columnName,
  email: columnName.optional(),
  phone: columnName.optional(),
  unit: columnName.optional(),
  department: columnName.optional(),
  recipientType: columnName.optional(),
});
export type RosterMapping = z.infer<typeof RosterMapping>;

/** 'hourly', 'daily', or a five-field cron expression (UTC); the server checks the expression itself. */
const RosterSchedule = z
  .string()
  .trim()
  .min(1, 'A schedule is required')
  .max(100, 'The schedule is at most 100 characters')
  .refine((s) => s === 'hourly' || s === 'daily' || s.split(/\s+/).length === 5, {
    message: 'The schedule is "hourly", "daily" or a cron expression of five fields',
  });

const common = {
  mapping: RosterMapping,
  schedule: RosterSchedule.default('daily'),
  graceDays: z
    .number({ message: 'graceDays must be a number' })
    .int('graceDays must be a whole number')
    .min(0, 'graceDays must be 0 or more')
    .max(365, 'graceDays must be at most 365')
    .default(14),
  approvalShare: z
    .number({ message: 'approvalShare must be a number' })
    .int('approvalShare must be a whole number')
    .min(0, 'approvalShare must be between 0 and 100')
    .max(100, 'approvalShare must be between 0 and 100')
    .default(10),
  enabled: z.boolean().default(true),
};

const HttpsSource = z.object({
  kind: z.literal('https'),
  url: z.url({ message: 'A valid URL is required' }).max(2000, 'The URL is at most 2000 characters'),
  /** The header that authenticates (e.g. Authorization); its value is the secret. */
  headerName: z
    .string()
    .trim()
    .max(100)
    .regex(/^[A-Za-z0-9-]*$/, 'The header name may hold letters, digits and hyphens only')
    .optional(),
  /** Write-only; left out on an update, the stored one stays. */
  headerValue: z.string().max(4000, 'The header value is at most 4000 characters').optional(),
  ...common,
});
/** An OpenSSH SHA-256 fingerprint: `SHA256:` and 43 characters of unpadded base64. */
export const SFTP_HOST_KEY_PATTERN = /^SHA256:[A-Za-z0-9+/]{43}$/;
const SftpSource = z.object({
  kind: z.literal('sftp'),
  host: z
    .string()
    .trim()
    .min(1, 'The SFTP host is required')
    .max(253)
    .regex(/^[A-Za-z0-9.:[\]-]+$/, 'The SFTP host is a name or an address'),
  port: z
    .number()
    .int()
    .min(1, 'The port is between 1 and 65535')
    .max(65535, 'The port is between 1 and 65535')
    .default(22),
  path: z.string().trim().min(1, 'The file path is required').max(1000),
  username: z.string().trim().min(1, 'The SFTP user name is required').max(100),
  sftpAuth: z.enum(['password', 'private_key'], { message: "sftpAuth is 'password' or 'private_key'" }),
  /** Write-only: the password or the private key (PEM / OpenSSH); left out on an update, the stored one stays. */
  secret: z.string().max(16_000, 'The secret is at most 16000 characters').optional(),
  /**
   * The server's host key fingerprint, as `ssh-keygen -lf` prints it. Empty: the first connection's
   * key is kept. Left out on an update: the kept one stays unless the host or port changes.
   */
  hostKey: z
    .string()
    .trim()
    .refine((v) => v === '' || SFTP_HOST_KEY_PATTERN.test(v), {
      message: 'The host key fingerprint looks like SHA256:… as ssh-keygen -lf prints it',
    })
    .optional(),
  ...common,
});
export const RosterSourceBody = z.discriminatedUnion('kind', [HttpsSource, SftpSource], {
  message: "kind is 'https' or 'sftp'",
});
export type RosterSourceBody = z.infer<typeof RosterSourceBody>;

export const RosterSource = z.object({
  id: z.uuid(),
  kind: z.enum(['https', 'sftp']),
  url: z.string().nullable(),
  headerName: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().nullable(),
  path: z.string().nullable(),
  username: z.string().nullable(),
  sftpAuth: z.enum(['password', 'private_key']).nullable(),
  /** The SFTP server's host key fingerprint, given or kept from the first connection; null until then. */
  sftpHostKey: z.string().nullable(),
  /** Whether a secret is stored (it is never replied). */
  hasSecret: z.boolean(),
  mapping: RosterMapping,
  schedule: z.string(),
  graceDays: z.number(),
  approvalShare: z.number(),
  enabled: z.boolean(),
  nextRunAt: Timestamp.nullable(),
  createdAt: Timestamp,
});
export type RosterSource = z.infer<typeof RosterSource>;

const ROSTER_RUN_STATUSES = ['fetched', 'awaiting_approval', 'applied', 'failed', 'rejected'] as const;
export const RosterRun = z.object({
  id: z.uuid(),
  sourceId: z.uuid(),
  status: z.enum(ROSTER_RUN_STATUSES),
  trigger: z.enum(['schedule', 'manual']),
  attempt: z.number(),
  counts: z.object({
    added: z.number(),
    changed: z.number(),
    moved: z.number(),
    left: z.number(),
    unchanged: z.number(),
    errors: z.number(),
  }),
  errorText: z.string().nullable(),
  rowErrors: z.array(z.object({ line: z.number(), messages: z.array(z.string()) })),
  startedAt: Timestamp,
  finishedAt: Timestamp.nullable(),
});
export type RosterRun = z.infer<typeof RosterRun>;

const Person = z.object({
  externalId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  unit: z.string().nullable(),
});
export const RosterPreview = z.object({
  run: RosterRun,
  /** Why it waits: the first run, or the share of the roster it would mark as left. */
  reason: z.enum(['first_run', 'share_left']).nullable(),
  added: z.array(Person.extend({ adoptsRecipientId: z.uuid().nullable() })),
  changed: z.array(Person.extend({ recipientId: z.uuid(), fields: z.array(z.string()), returns: z.boolean() })),
  moved: z.array(Person.extend({ recipientId: z.uuid(), fromUnit: z.string().nullable() })),
  left: z.array(Person.extend({ recipientId: z.uuid() })),
});
export type RosterPreview = z.infer<typeof RosterPreview>;

export const RosterSourceParams = z.object({ id: z.uuid({ message: 'id must be a UUID' }) });
export const RosterRunParams = z.object({ id: z.uuid({ message: 'id must be a UUID' }) });
export const RosterRunsQuery = z.object({
  sourceId: z.uuid({ message: 'sourceId must be a UUID' }).optional(),
  limit: limitParam(100, 20),
  offset: offsetParam,
});
export const RosterRunsPage = z.object({ runs: z.array(RosterRun), total: z.number() });
