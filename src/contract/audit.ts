import { z } from 'zod';
import { Timestamp } from './common';
import { limitParam, offsetParam } from './pagination';

/** What an audit entry records; the client words each one. */
export const AUDIT_ACTIONS = [
  'invitation.sent',
  'invitation.resent',
  'invitation.revoked',
  'invitation.accepted',
  'member.role_changed',
  'member.removed',
  'organization.updated',
  'settings.updated',
  'integration.created',
  'integration.updated',
  'integration.deleted',
  'integration.secret_rotated',
  'api_key.created',
  'api_key.revoked',
  'mailroom.created',
  'mailroom.updated',
  'mailroom.deleted',
  'location.created',
  'location.updated',
  'location.deleted',
  'billing.plan_changed',
  'billing.payment_failed',
  'billing.refused',
  'recipient.personal_data_exported',
  'recipient.erased',
  'domain.claimed',
  'domain.verified',
  'domain.removed',
  'sso.connection_saved',
  'sso.connection_removed',
  'sso.signed_in',
  'member.joined_by_sso',
  'member.role_changed_by_sso',
  'roster.source_created',
  'roster.source_updated',
  'roster.source_deleted',
  'roster.run_started',
  'roster.run_approved',
  'roster.run_rejected',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/** GET /api/audit-log (admins of the current organization): newest first, total in X-Total-Count. */
export const AuditEntry = z.object({
  id: z.uuid(),
  action: AuditAction,
  actor: z
    .object({ id: z.uuid(), firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.string() })
    .nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** The target's name or email when it happened. */
  targetLabel: z.string().nullable(),
  /** Only the fields that changed. */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  createdAt: Timestamp,
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditLogQuery = z.object({
  limit: limitParam(100, 25),
  offset: offsetParam,
});
