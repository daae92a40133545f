import { count, desc, eq } from 'drizzle-orm';
import type { AuditAction } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { auditLog, users } from '../../db/schema';

type AuditTargetType =
  | 'invitation'
  | 'member'
  | 'organization'
  | 'settings'
  | 'integration'
  | 'api_key'
  | 'mailroom'
  | 'location'
  | 'billing'
  | 'recipient'
  | 'domain'
  | 'sso_connection'
  | 'user'
  | 'roster_source'
  | 'roster_run';

/** Stands for a secret that changed in an entry's before and after: the secret itself never goes in. */
export const SECRET_CHANGED = '(changed)';

export type AuditRecord = {
  /** null only for platform-wide changes (super admin). */
  organizationId: string | null;
  actorId: string | null;
  action: AuditAction;
  targetType?: AuditTargetType | null;
  targetId?: string | null;
  /** The target's email or name when it happened; it outlives the target. */
  targetLabel?: string | null;
  /** Only the fields that changed. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

/**
 * The append-only audit log of administration. Writers pass the transaction of the change they
 * record, so an entry exists exactly when its change committed. Nothing updates or deletes rows.
 */
export const auditRepository = {
  async record(tx: DbOrTx, entry: AuditRecord): Promise<void> {
    await tx.insert(auditLog).values({
      organizationId: entry.organizationId,
      actorId: entry.actorId,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      targetLabel: entry.targetLabel?.slice(0, 255) ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
    });
  },

  /** The organization's entries, newest first (by seq: entries of one transaction share created_at). */
  async list(db: DbOrTx, organizationId: string, limit: number, offset: number) {
    return db
      .select({
        id: auditLog.id,
        action: auditLog.action,
        actorId: auditLog.actorId,
        actorFirstName: users.firstName,
        actorLastName: users.lastName,
        actorEmail: users.email,
        targetType: auditLog.targetType,
        targetId: auditLog.targetId,
        targetLabel: auditLog.targetLabel,
        before: auditLog.before,
        after: auditLog.after,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(eq(auditLog.organizationId, organizationId))
      .orderBy(desc(auditLog.seq))
      .limit(limit)
      .offset(offset);
  },

  async count(db: DbOrTx, organizationId: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.organizationId, organizationId));
    return row?.n ?? 0;
  },
};

/**
 * The fields of `after` that differ from `before` (deep equality for lists), as the before and
 * after halves of an audit entry; null when nothing changed.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = before[key] ?? null;
    if (JSON.stringify(old) === JSON.stringify(value)) continue;
    b[key] = old;
    a[key] = value;
  }
  return Object.keys(a).length > 0 ? { before: b, after: a } : null;
}

/**
 * changedFields over two whole views of a record (before and after the change): a field that is
 * gone afterwards counts as changed to null. Null when nothing changed.
 */
export function changedViews(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const gone = Object.keys(before).filter((key) => after[key] === undefined);
  return changedFields(before, { ...after, ...Object.fromEntries(gone.map((key) => [key, null])) });
}
