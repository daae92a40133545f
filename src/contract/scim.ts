import { z } from 'zod';
import { Id, Timestamp } from './common';
import { limitParam, offsetParam } from './pagination';

/**
 * SCIM 2.0 provisioning (issue 43 §2, decision 060). An admin creates a bearer token in Settings →
 * Directory (shown once) and gives it with the base URL to the identity provider (Entra ID, Okta),
 * which then creates, updates and deactivates recipients at `/scim/v2`. These are the admin calls
 * of /api/scim/tokens; the protocol's own JSON lives in the server (it is SCIM's, not ours).
 */

/** Where the protocol is served, under the app's address. */
export const SCIM_BASE_PATH = '/scim/v2';

export const SCIM_MESSAGES = {
  nameRequired: 'Enter a name for the token, like the identity provider it is for',
  nameTooLong: 'A token name has at most 100 characters',
  tokenNotFound: 'Token not found',
  invalidToken: 'The SCIM bearer token is missing, unknown or revoked',
  rateLimited: 'Too many SCIM requests for this organization: slow down and retry after the delay',
  /** The desk's refusal of an edit of a field a directory feed owns (recipients.service). */
  managedByDirectory: (feed: string, fields: string[]) =>
    `${fields.join(', ')} ${fields.length > 1 ? 'are' : 'is'} kept by the organization's directory (${feed === 'scim' ? 'SCIM provisioning' : feed === 'roster' ? 'the scheduled roster import' : feed}): change ${fields.length > 1 ? 'them' : 'it'} there, and the next sync brings ${fields.length > 1 ? 'them' : 'it'} here.`,
} as const;

export const CreateScimTokenBody = z.object({
  name: z
    .string({ message: SCIM_MESSAGES.nameRequired })
    .trim()
    .min(1, SCIM_MESSAGES.nameRequired)
    .max(100, SCIM_MESSAGES.nameTooLong),
});
export type CreateScimTokenBody = z.input<typeof CreateScimTokenBody>;

export const ScimToken = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The token's first characters, to tell tokens apart; the token itself is never shown again. */
  prefix: z.string(),
  createdAt: Timestamp,
  /** Who created it (null: their account is gone). */
  createdBy: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  lastUsedAt: Timestamp.nullable(),
  revokedAt: Timestamp.nullable(),
});
export type ScimToken = z.infer<typeof ScimToken>;

/** The answer of a create: the token in clear, this once. */
export const CreatedScimToken = ScimToken.extend({ token: z.string() });
export type CreatedScimToken = z.infer<typeof CreatedScimToken>;

export const ScimTokenParams = z.object({ id: Id });

/** How long the SCIM request log keeps a call (the hourly housekeeping purges older ones). */
export const SCIM_REQUEST_RETENTION_DAYS = 30;

/** A page of the request log: `GET /api/scim/requests?limit=&offset=`, the total in X-Total-Count. */
export const ScimRequestsQuery = z.object({
  limit: limitParam(100, 20),
  offset: offsetParam,
});
export type ScimRequestsQuery = z.input<typeof ScimRequestsQuery>;

/**
 * One authenticated call to /scim/v2 (decision 060): reads too. The path carries no query; of a
 * filter only its attribute and operator are kept (`userName eq`): its value is personal data.
 */
export const ScimRequest = z.object({
  id: z.uuid(),
  method: z.string(),
  /** Under /scim/v2, without the query: `/Users/4f0c…`. */
  path: z.string(),
  filter: z.string().nullable(),
  status: z.number().int(),
  /** The User or Group the call named or created, when it did. */
  resourceId: z.string().nullable(),
  durationMs: z.number().int(),
  /** The token it came with (null: since deleted with its organization's data). */
  token: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  createdAt: Timestamp,
});
export type ScimRequest = z.infer<typeof ScimRequest>;

/**
 * The recipient fields a directory feed (SCIM or the roster) owns: the desk cannot change them on a
 * recipient the feed manages (409 `managed_by_directory`). The recipient type, their proxies and
 * everything about their mail stay the desk's.
 */
export const DIRECTORY_OWNED_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'unit',
  'department',
  'isActive',
] as const;
export type DirectoryOwnedField = (typeof DIRECTORY_OWNED_FIELDS)[number];
export const DIRECTORY_FIELD_LABELS: Record<DirectoryOwnedField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  unit: 'Unit',
  department: 'Department',
  isActive: 'Active',
};
