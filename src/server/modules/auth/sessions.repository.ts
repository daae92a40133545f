import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Role } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { organizationMembers, sessions, users } from '../../db/schema';
import type { UserRow } from './users.repository';

export const sessionsRepository = {
  async insert(db: DbOrTx, sid: string, userId: string, expire: Date, meta: { ip?: string; userAgent?: string }) {
    await db.insert(sessions).values({
      sid,
      userId,
      expire,
      sess: { userId, createdAt: new Date().toISOString(), ...meta },
    });
  },

  /**
   * The live session and its user in one round trip: this runs on every signed-in request. Given
   * the organization the request names, the caller's role in it (null: not a member) comes in the
   * same statement, so a call to an organization's data costs one round trip before its own.
   */
  async findLive(
    db: DbOrTx,
    sid: string,
    organizationId?: string,
  ): Promise<{ expire: Date; user: UserRow; role: Role | null } | undefined> {
    const m = organizationMembers;
    const [row] = await db
      .select({
        expire: sessions.expire,
        user: users,
        role: organizationId
          ? sql<Role | null>`(select ${m.role} from ${m} where ${m.organizationId} = ${organizationId} and ${m.userId} = ${sessions.userId})`
          : sql<null>`null`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.sid, sid), gt(sessions.expire, new Date())));
    return row;
  },

  async extend(db: DbOrTx, sid: string, expire: Date) {
    await db.update(sessions).set({ expire }).where(eq(sessions.sid, sid));
  },

  async delete(db: DbOrTx, sid: string) {
    await db.delete(sessions).where(eq(sessions.sid, sid));
  },

  /** Ends every session of a user, optionally keeping one (the caller's own). */
  async deleteForUser(db: DbOrTx, userId: string, exceptSid?: string) {
    await db
      .delete(sessions)
      .where(exceptSid ? and(eq(sessions.userId, userId), ne(sessions.sid, exceptSid)) : eq(sessions.userId, userId));
  },

  async deleteExpired(db: DbOrTx) {
    await db.delete(sessions).where(lt(sessions.expire, new Date()));
  },
};
