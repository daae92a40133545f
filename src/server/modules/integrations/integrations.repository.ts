import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { integrations, notificationJobs } from '../../db/schema';

export type IntegrationRow = typeof integrations.$inferSelect;
export type IntegrationStats = { sent: number; failed: number; queued: number };
export type NotificationJobRow = typeof notificationJobs.$inferSelect;

const scoped = (organizationId: string, id: string) =>
  and(eq(integrations.organizationId, organizationId), eq(integrations.id, id));

export const integrationsRepository = {
  async list(db: DbOrTx, organizationId: string): Promise<IntegrationRow[]> {
    return db
      .select()
      .from(integrations)
      .where(eq(integrations.organizationId, organizationId))
      .orderBy(asc(integrations.createdAt), asc(integrations.id));
  },

  async find(db: DbOrTx, organizationId: string, id: string, lock = false): Promise<IntegrationRow | undefined> {
    const query = db.select().from(integrations).where(scoped(organizationId, id));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  },

  async insert(
    db: DbOrTx,
    values: Pick<typeof integrations.$inferInsert, 'organizationId' | 'name' | 'type' | 'config' | 'isActive'>,
  ): Promise<IntegrationRow> {
    const [row] = await db.insert(integrations).values(values).returning();
    return row!;
  },

  async update(
    db: DbOrTx,
    organizationId: string,
    id: string,
    values: Partial<Pick<IntegrationRow, 'name' | 'config' | 'isActive' | 'attentionReason' | 'attentionAt'>>,
  ): Promise<IntegrationRow | undefined> {
    const [row] = await db
      .update(integrations)
      .set({ ...values, updatedAt: new Date() })
      .where(scoped(organizationId, id))
      .returning();
    return row;
  },

  async delete(db: DbOrTx, organizationId: string, id: string): Promise<boolean> {
    const rows = await db.delete(integrations).where(scoped(organizationId, id)).returning({ id: integrations.id });
    return rows.length > 0;
  },

  /**
   * Delivery figures of the last 7 days for the given integrations (messages only, not the
   * 'event' rows they were fanned out from): one grouped query for the whole list.
   */
  async stats(db: DbOrTx, organizationId: string, ids: string[]): Promise<Map<string, IntegrationStats>> {
    const result = new Map<string, IntegrationStats>();
    if (ids.length === 0) return result;
    const rows = await db
      .select({
        integrationId: notificationJobs.integrationId,
        sent: sql<number>`count(*) filter (where ${notificationJobs.status} = 'sent')`.mapWith(Number),
        failed: sql<number>`count(*) filter (where ${notificationJobs.status} = 'failed')`.mapWith(Number),
        queued: sql<number>`count(*) filter (where ${notificationJobs.status} in ('queued', 'sending'))`.mapWith(
          Number,
        ),
      })
      .from(notificationJobs)
      .where(
        and(
          eq(notificationJobs.organizationId, organizationId),
          sql`${notificationJobs.integrationId} = any(${sql.param(ids)}::uuid[])`,
          ne(notificationJobs.channel, 'event'),
          sql`${notificationJobs.createdAt} > now() - interval '7 days'`,
        ),
      )
      .groupBy(notificationJobs.integrationId);
    for (const r of rows)
      if (r.integrationId) result.set(r.integrationId, { sent: r.sent, failed: r.failed, queued: r.queued });
    return result;
  },

  /** The integration's messages, newest first, and how many there are. */
  async deliveries(
    db: DbOrTx,
    organizationId: string,
    integrationId: string,
    page: { limit: number; offset: number },
  ): Promise<{ rows: NotificationJobRow[]; total: number }> {
    const where = and(
      eq(notificationJobs.organizationId, organizationId),
      eq(notificationJobs.integrationId, integrationId),
      ne(notificationJobs.channel, 'event'),
    );
    const [rows, [totalRow]] = await Promise.all([
      db
        .select()
        .from(notificationJobs)
        .where(where)
        .orderBy(desc(notificationJobs.createdAt), desc(notificationJobs.id))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ total: count() }).from(notificationJobs).where(where),
    ]);
    return { rows, total: totalRow?.total ?? 0 };
  },

  /** A message sent outside the queue (a test): recorded so the delivery log shows it. */
  async recordMessage(
    db: DbOrTx,
    values: Pick<
      typeof notificationJobs.$inferInsert,
      | 'organizationId'
      | 'integrationId'
      | 'channel'
      | 'event'
      | 'destination'
      | 'status'
      | 'lastError'
      | 'responseStatus'
      | 'latencyMs'
      | 'providerId'
      | 'sentAt'
      | 'payload'
    >,
  ) {
    await db.insert(notificationJobs).values({ ...values, attempts: 1, maxAttempts: 1 });
  },
};
