import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sessions, users } from '../../db/schema';
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

  /** The live session and its user in one round trip: this runs on every signed-in request. */
  async findLive(db: DbOrTx, sid: string): Promise<{ expire: Date; user: UserRow } | undefined> {
    const [row] = await db
      .select({ expire: sessions.expire, user: users })
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
