import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { ssoConnections, ssoSignInRequests, ssoUsedAssertions, userIdentities } from '../../db/schema';

export type SsoConnectionRow = typeof ssoConnections.$inferSelect;
export type SsoSignInRequestRow = typeof ssoSignInRequests.$inferSelect;
export type UserIdentityRow = typeof userIdentities.$inferSelect;

/** Single sign-on's rows (decision 059). Organization-scoped reads take the organization id first. */
export const ssoRepository = {
  async findConnection(db: DbOrTx, organizationId: string): Promise<SsoConnectionRow | undefined> {
    const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.organizationId, organizationId));
    return row;
  },

  async findConnectionById(db: DbOrTx, organizationId: string, id: string): Promise<SsoConnectionRow | undefined> {
    const [row] = await db
      .select()
      .from(ssoConnections)
      .where(and(eq(ssoConnections.organizationId, organizationId), eq(ssoConnections.id, id)));
    return row;
  },

  /** Inserts or replaces the organization's one connection (sso_connections_org_idx). */
  async upsertConnection(
    db: DbOrTx,
    organizationId: string,
    values: Omit<typeof ssoConnections.$inferInsert, 'organizationId' | 'id' | 'createdAt'>,
  ): Promise<SsoConnectionRow> {
    const [row] = await db
      .insert(ssoConnections)
      .values({ ...values, organizationId })
      .onConflictDoUpdate({
        target: ssoConnections.organizationId,
        set: { ...values, createdBy: sql`${ssoConnections.createdBy}`, updatedAt: new Date() },
      })
      .returning();
    return row!;
  },

  async deleteConnection(db: DbOrTx, organizationId: string): Promise<SsoConnectionRow | undefined> {
    const [row] = await db.delete(ssoConnections).where(eq(ssoConnections.organizationId, organizationId)).returning();
    return row;
  },

  async insertSignInRequest(db: DbOrTx, values: typeof ssoSignInRequests.$inferInsert) {
    await db.insert(ssoSignInRequests).values(values);
  },

  /**
   * Takes the sign-in request of this state: marks it used in the same statement that finds it,
   * so a second callback with the same state (a replay, or two tabs racing) finds nothing. An
   * expired request is not taken.
   */
  async takeSignInRequest(db: DbOrTx, stateHash: string, now = new Date()): Promise<SsoSignInRequestRow | undefined> {
    const [row] = await db
      .update(ssoSignInRequests)
      .set({ usedAt: now })
      .where(
        and(
          eq(ssoSignInRequests.stateHash, stateHash),
          isNull(ssoSignInRequests.usedAt),
          gt(ssoSignInRequests.expiresAt, now),
        ),
      )
      .returning();
    return row;
  },

  async findIdentity(db: DbOrTx, connectionId: string, subject: string): Promise<UserIdentityRow | undefined> {
    const [row] = await db
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.connectionId, connectionId), eq(userIdentities.subject, subject)));
    return row;
  },

  async insertIdentity(db: DbOrTx, values: typeof userIdentities.$inferInsert): Promise<UserIdentityRow> {
    const [row] = await db.insert(userIdentities).values(values).returning();
    return row!;
  },

  async touchIdentity(db: DbOrTx, organizationId: string, id: string, email: string) {
    await db
      .update(userIdentities)
      .set({ email, lastSignInAt: new Date() })
      .where(and(eq(userIdentities.organizationId, organizationId), eq(userIdentities.id, id)));
  },

  /**
   * Records an assertion, response id or code as consumed; false when it already was (a replay).
   * The primary key decides, so two deliveries at the same moment cannot both pass.
   */
  async markAssertionUsed(
    db: DbOrTx,
    values: { organizationId: string; connectionId: string; assertionId: string; expiresAt: Date },
  ): Promise<boolean> {
    const rows = await db.insert(ssoUsedAssertions).values(values).onConflictDoNothing().returning();
    return rows.length === 1;
  },

  /** Housekeeping: sign-in requests and used assertions past their time. */
  async purgeExpired(db: DbOrTx, now = new Date()) {
    await db.delete(ssoSignInRequests).where(lt(ssoSignInRequests.expiresAt, now));
    await db.delete(ssoUsedAssertions).where(lt(ssoUsedAssertions.expiresAt, now));
  },
};
