import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { ROSTER_MESSAGES } from '../../../contract';
import { rosterRuns, rosterSources } from '../../db/schema';
import { escapeLike } from '../../lib/like';

export type RosterSourceRow = typeof rosterSources.$inferSelect;
export type RosterRunRow = typeof rosterRuns.$inferSelect;
export type RosterSourceValues = Omit<
  typeof rosterSources.$inferInsert,
  'id' | 'organizationId' | 'createdAt' | 'updatedAt' | 'runningUntil' | 'failedAttempts'
>;

/** How long a taken run holds its source: longer than a fetch (30 s) and the biggest apply. */
const RUN_LEASE_SECONDS = 600;

export const rosterRepository = {
  async listSources(db: DbOrTx, organizationId: string) {
    return db
      .select()
      .from(rosterSources)
      .where(eq(rosterSources.organizationId, organizationId))
      .orderBy(rosterSources.createdAt, rosterSources.id);
  },

  async findSource(db: DbOrTx, organizationId: string, id: string): Promise<RosterSourceRow | undefined> {
    const [row] = await db
      .select()
      .from(rosterSources)
      .where(and(eq(rosterSources.organizationId, organizationId), eq(rosterSources.id, id)));
    return row;
  },

  async insertSource(db: DbOrTx, organizationId: string, values: RosterSourceValues) {
    const [row] = await db
      .insert(rosterSources)
      .values({ ...values, organizationId })
      .returning();
    return row!;
  },

  async updateSource(db: DbOrTx, organizationId: string, id: string, values: Partial<RosterSourceValues>) {
    const [row] = await db
      .update(rosterSources)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(rosterSources.organizationId, organizationId), eq(rosterSources.id, id)))
      .returning();
    return row;
  },

  /**
   * The host key of a source's first connection (trust on first use): set only while none is, so
   * an admin's fingerprint saved meanwhile is never overwritten by a run.
   */
  async keepHostKey(db: DbOrTx, organizationId: string, id: string, fingerprint: string) {
    await db
      .update(rosterSources)
      .set({ sftpHostKey: fingerprint })
      .where(
        and(
          eq(rosterSources.organizationId, organizationId),
          eq(rosterSources.id, id),
          isNull(rosterSources.sftpHostKey),
        ),
      );
  },

  async deleteSource(db: DbOrTx, organizationId: string, id: string) {
    const rows = await db
      .delete(rosterSources)
      .where(and(eq(rosterSources.organizationId, organizationId), eq(rosterSources.id, id)))
      .returning({ id: rosterSources.id });
    return rows.length > 0;
  },

  /**
   * Takes the due sources of every organization for this instance: a row claim (FOR UPDATE SKIP
   * LOCKED, then a lease in `running_until`), so each due source is run by one instance however
   * many tick at once; a lease left by a crashed instance expires and the source is taken again.
   */
  async claimDue(db: DbOrTx, limit: number): Promise<RosterSourceRow[]> {
    const { rows } = await db.execute<{ id: string; organization_id: string }>(sql`
      update roster_sources s set running_until = now() + make_interval(secs => ${RUN_LEASE_SECONDS})
      where s.id in (
        select id from roster_sources
        where enabled and next_run_at <= now() and (running_until is null or running_until < now())
        order by next_run_at
        limit ${limit}
        for update skip locked)
      returning s.id, s.organization_id`);
    const claimed: RosterSourceRow[] = [];
    for (const r of rows) {
      const row = await this.findSource(db, r.organization_id, r.id);
      if (row) claimed.push(row);
    }
    return claimed;
  },

  /** "Run now": the same lease, for one source, whether due or not; undefined while another run holds it. */
  async claimOne(db: DbOrTx, organizationId: string, id: string): Promise<RosterSourceRow | undefined> {
    const [row] = await db
      .update(rosterSources)
      .set({ runningUntil: sql`now() + make_interval(secs => ${RUN_LEASE_SECONDS})` })
      .where(
        and(
          eq(rosterSources.organizationId, organizationId),
          eq(rosterSources.id, id),
          sql`(${rosterSources.runningUntil} is null or ${rosterSources.runningUntil} < now())`,
        ),
      )
      .returning();
    return row;
  },

  /** Ends a run's lease and sets when the source is next due, and its failures in a row. */
  async release(
    db: DbOrTx,
    organizationId: string,
    id: string,
    next: { nextRunAt: Date | null; failedAttempts: number },
  ) {
    await db
      .update(rosterSources)
      .set({ runningUntil: null, ...next })
      .where(and(eq(rosterSources.organizationId, organizationId), eq(rosterSources.id, id)));
  },

  /** Every enabled source, for the grace sweep (each organization's sources, across organizations). */
  async enabledSources(db: DbOrTx) {
    return db
      .select({
        id: rosterSources.id,
        organizationId: rosterSources.organizationId,
        graceDays: rosterSources.graceDays,
      })
      .from(rosterSources)
      .where(eq(rosterSources.enabled, true));
  },

  async insertRun(db: DbOrTx, organizationId: string, values: Omit<typeof rosterRuns.$inferInsert, 'organizationId'>) {
    const [row] = await db
      .insert(rosterRuns)
      .values({ ...values, organizationId })
      .returning();
    return row!;
  },

  async updateRun(db: DbOrTx, organizationId: string, id: string, values: Partial<typeof rosterRuns.$inferInsert>) {
    const [row] = await db
      .update(rosterRuns)
      .set(values)
      .where(and(eq(rosterRuns.organizationId, organizationId), eq(rosterRuns.id, id)))
      .returning();
    return row;
  },

  async findRun(db: DbOrTx, organizationId: string, id: string, lock = false): Promise<RosterRunRow | undefined> {
    const query = db
      .select()
      .from(rosterRuns)
      .where(and(eq(rosterRuns.organizationId, organizationId), eq(rosterRuns.id, id)));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  },

  async listRuns(db: DbOrTx, organizationId: string, filter: { sourceId?: string; limit: number; offset: number }) {
    const where = and(
      eq(rosterRuns.organizationId, organizationId),
      filter.sourceId ? eq(rosterRuns.sourceId, filter.sourceId) : undefined,
    );
    const rows = await db
      .select()
      .from(rosterRuns)
      .where(where)
      .orderBy(desc(rosterRuns.startedAt), desc(rosterRuns.id))
      .limit(filter.limit)
      .offset(filter.offset);
    const [total] = await db.select({ n: count() }).from(rosterRuns).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  /** Whether the source has had a run applied (after `since`, when given): the first run waits for approval. */
  async hasAppliedRun(db: DbOrTx, organizationId: string, sourceId: string, since?: Date) {
    const [row] = await db
      .select({ n: count() })
      .from(rosterRuns)
      .where(
        and(
          eq(rosterRuns.organizationId, organizationId),
          eq(rosterRuns.sourceId, sourceId),
          eq(rosterRuns.status, 'applied'),
          since ? sql`${rosterRuns.startedAt} > ${since.toISOString()}` : undefined,
        ),
      );
    return (row?.n ?? 0) > 0;
  },

  /**
   * A recipient's erasure (decision 061, amended): every run of the organization whose waiting
   * preview names them (`needles`: their id, full name, email, phone) loses its preview and is
   * marked failed, to be run again; every run whose row errors name them has those values
   * replaced by `erased`. Case aside. Answers the runs changed.
   */
  async forgetRecipient(tx: DbOrTx, organizationId: string, needles: string[], erased: string): Promise<number> {
    const values = [...new Set(needles.map((n) => n.trim()).filter((n) => n.length >= 2))];
    if (values.length === 0) return 0;
    // As each value stands inside JSON text (a quote or a backslash escaped).
    const inJson = values.map((v) => JSON.stringify(v).slice(1, -1));
    const mentions = (column: typeof rosterRuns.preview | typeof rosterRuns.rowErrors) =>
      or(...inJson.map((v) => sql`${column}::text ilike ${`%${escapeLike(v)}%`}`));
    const rows = await tx
      .select({
        id: rosterRuns.id,
        status: rosterRuns.status,
        preview: rosterRuns.preview,
        rowErrors: rosterRuns.rowErrors,
      })
      .from(rosterRuns)
      .where(
        and(
          eq(rosterRuns.organizationId, organizationId),
          or(mentions(rosterRuns.preview), mentions(rosterRuns.rowErrors)),
        ),
      )
      .for('update');
    const lower = inJson.map((v) => v.toLowerCase());
    const names = (value: unknown) => {
      const text = JSON.stringify(value ?? null).toLowerCase();
      return lower.some((v) => text.includes(v));
    };
    const pattern = new RegExp(
      values
        .sort((a, b) => b.length - a.length)
        .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'),
      'gi',
    );
    let changed = 0;
    for (const row of rows) {
      const patch: Partial<typeof rosterRuns.$inferInsert> = {};
      if (row.preview && names(row.preview)) {
        patch.preview = null;
        if (row.status === 'awaiting_approval') {
          patch.status = 'failed';
          patch.errorText = ROSTER_MESSAGES.previewDiscarded;
        }
      }
      if (row.rowErrors && names(row.rowErrors)) {
        patch.rowErrors = row.rowErrors.map((e) => ({
          ...e,
          messages: e.messages.map((m) => m.replace(pattern, erased)),
        }));
      }
      if (Object.keys(patch).length === 0) continue;
      await tx
        .update(rosterRuns)
        .set(patch)
        .where(and(eq(rosterRuns.organizationId, organizationId), eq(rosterRuns.id, row.id)));
      changed += 1;
    }
    return changed;
  },
};
