import { and, isNull, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

export const usersRepository = {
  async findById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    return row;
  },

  async findByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
    return row;
  },

  /** Login accepts either the email or the handle. */
  async findByLogin(db: DbOrTx, login: string): Promise<UserRow | undefined> {
    const value = login.toLowerCase();
    const [row] = await db
      .select()
      .from(users)
      .where(value.includes('@') ? eq(users.email, value) : sql`lower(${users.username}) = ${value}`)
      .limit(1);
    return row;
  },

  async usernameTaken(db: DbOrTx, username: string): Promise<boolean> {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
    return Boolean(row);
  },

  async insert(db: DbOrTx, values: typeof users.$inferInsert): Promise<UserRow> {
    const [row] = await db.insert(users).values(values).returning();
    return row!;
  },

  async update(db: DbOrTx, id: string, values: Partial<typeof users.$inferInsert>): Promise<UserRow | undefined> {
    const [row] = await db
      .update(users)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  },

  /** Sets the verification time once; a second proof keeps the first. */
  async markEmailVerified(db: DbOrTx, id: string) {
    await db
      .update(users)
      .set({ emailVerifiedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(users.id, id), isNull(users.emailVerifiedAt)));
  },

  /** Sets the flag; answers the flag before (undefined for an unknown user), locking the row. */
  async setSuperAdmin(db: DbOrTx, id: string, isSuperAdmin: boolean) {
    const [before] = await db
      .select({ isSuperAdmin: users.isSuperAdmin, email: users.email })
      .from(users)
      .where(eq(users.id, id))
      .for('no key update');
    if (!before) return undefined;
    await db.update(users).set({ isSuperAdmin, updatedAt: new Date() }).where(eq(users.id, id));
    return before;
  },
};
