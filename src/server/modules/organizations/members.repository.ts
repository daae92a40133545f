import { and, asc, count, eq } from 'drizzle-orm';
import type { Role } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { organizationMembers, users } from '../../db/schema';

export const membersRepository = {
  /** The caller's role in an organization, or undefined when not a member. Runs on every scoped call. */
  async findRole(db: DbOrTx, organizationId: string, userId: string): Promise<Role | undefined> {
    const [row] = await db
      .select({ role: organizationMembers.role })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
    return row?.role;
  },

  async insert(db: DbOrTx, organizationId: string, userId: string, role: Role) {
    await db.insert(organizationMembers).values({ organizationId, userId, role });
  },

  async list(db: DbOrTx, organizationId: string) {
    return db
      .select({
        id: organizationMembers.id,
        organizationId: organizationMembers.organizationId,
        userId: organizationMembers.userId,
        role: organizationMembers.role,
        createdAt: organizationMembers.createdAt,
        user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
      })
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId))
      .where(eq(organizationMembers.organizationId, organizationId))
      .orderBy(asc(organizationMembers.createdAt));
  },

  /** Locks the organization's admin rows so two concurrent removals cannot both pass the last-admin check. */
  async countAdminsForUpdate(db: DbOrTx, organizationId: string): Promise<number> {
    const rows = await db
      .select({ id: organizationMembers.id })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.role, 'admin')))
      .for('update');
    return rows.length;
  },

  async count(db: DbOrTx, organizationId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(organizationMembers)
      .where(eq(organizationMembers.organizationId, organizationId));
    return row?.n ?? 0;
  },

  async delete(db: DbOrTx, organizationId: string, userId: string): Promise<boolean> {
    const rows = await db
      .delete(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)))
      .returning({ id: organizationMembers.id });
    return rows.length > 0;
  },
};
