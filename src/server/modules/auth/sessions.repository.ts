import { and, eq, gt, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Role } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { organizationMembers, sessions, users } from '../../db/schema';
import { organizationDataVersionSql } from '../../db/data-version';
import type { UserRow } from './users.repository';

const liveSessions = new WeakMap<DbOrTx, ReturnType<typeof prepareLiveSessions>>();
const preparedLiveSessions = (db: DbOrTx) =>
  liveSessions.get(db) ?? liveSessions.set(db, prepareLiveSessions(db)).get(db)!;

function prepareLiveSessions(db: DbOrTx) {
  const m = organizationMembers;
  const live = (role: SQL<Role | null>, dataVersion: SQL<string | null>, name: string) =>
    db
      .select({ expire: sessions.expire, user: users, role, dataVersion })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.sid, sql.placeholder('sid')), gt(sessions.expire, sql`now()`)))
      .prepare(name);
  return {
    alone: live(sql<null>`null`, sql<null>`null`, 'session_live'),
    withRole: live(
      sql<Role | null>`(select ${m.role} from ${m} where ${m.organizationId} = ${sql.placeholder('organizationId')}::uuid and ${m.userId} = ${sessions.userId})`,
      organizationDataVersionSql(sql`${sql.placeholder('organizationId')}::uuid`),
      'session_live_with_role',
    ),
  };
}

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
   * same statement, so a call to an organization's data costs one round trip before its own,
   * and so does the organization's data version (decision 037: what the caches may serve it).
   * Prepared once per database handle (named statements, parsed once per connection).
   */
  async findLive(
    db: DbOrTx,
    sid: string,
    organizationId?: string,
  ): Promise<{ expire: Date; user: UserRow; role: Role | null; dataVersion: string | null } | undefined> {
    const queries = preparedLiveSessions(db);
    const [row] = organizationId
      ? await queries.withRole.execute({ sid, organizationId })
      : await queries.alone.execute({ sid });
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
