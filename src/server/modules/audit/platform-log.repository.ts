import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PlatformLogAction, PlatformLogKind } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { PLATFORM_LOG_SEARCH_SQL, platformLog } from '../../db/schema';
import { escapeLike } from '../../lib/like';

export type PlatformLogRecord = {
  kind: PlatformLogKind;
  action: PlatformLogAction;
  actor?: { id: string; email: string } | null;
  targetType?: 'organization' | 'user' | 'login' | 'provider' | null;
  targetId?: string | null;
  /** The target's name or email when it happened: it outlives the target. */
  targetLabel?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  details?: Record<string, unknown> | null;
};

export type PlatformLogFilter = { kind?: PlatformLogKind; search?: string };

function conditions(filter: PlatformLogFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.kind) where.push(eq(platformLog.kind, filter.kind));
  if (filter.search) {
    const term = `%${escapeLike(filter.search.toLowerCase())}%`;
    where.push(sql`${PLATFORM_LOG_SEARCH_SQL} like ${term}`);
  }
  return where.length ? and(...where) : undefined;
}

/**
 * The platform's append-only log (System Logs). A writer passes the transaction of the change it
 * records, so an operator's entry exists exactly when the change committed.
 */
export const platformLogRepository = {
  async record(tx: DbOrTx, entry: PlatformLogRecord): Promise<void> {
    await tx.insert(platformLog).values({
      kind: entry.kind,
      action: entry.action,
      actorId: entry.actor?.id ?? null,
      actorEmail: entry.actor?.email ?? null,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      targetLabel: entry.targetLabel?.slice(0, 255) ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
      details: entry.details ?? null,
    });
  },

  /** Newest first (platform_log_seq_idx, or platform_log_kind_seq_idx with a kind). */
  list(db: DbOrTx, filter: PlatformLogFilter, limit: number, offset: number) {
    return db
      .select()
      .from(platformLog)
      .where(conditions(filter))
      .orderBy(desc(platformLog.seq))
      .limit(limit)
      .offset(offset);
  },

  async count(db: DbOrTx, filter: PlatformLogFilter): Promise<number> {
    const [row] = await db.select({ n: count() }).from(platformLog).where(conditions(filter));
    return row?.n ?? 0;
  },
};

export type PlatformLogRow = typeof platformLog.$inferSelect;
