import { and, asc, count, eq } from 'drizzle-orm';
import type { Role } from '../../../contract';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { DbOrTx } from '../../db/client';
import { organizationMembers, organizations, users } from '../../db/schema';

const memberColumns = {
  id: organizationMembers.id,
  organizationId: organizationMembers.organizationId,
  userId: organizationMembers.userId,
  role: organizationMembers.role,
  createdAt: organizationMembers.createdAt,
  user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
};

export type MemberRow = {
  id: string;
  organizationId: string;
  userId: string;
  role: Role;
  createdAt: Date;
  user: { id: string; firstName: string | null; lastName: string | null; email: string };
};

/**
 * The given columns of the organization row, the row locked FOR NO KEY UPDATE until the
 * transaction ends (see lockOrganization for why that lock); undefined when there is no such
 * organization. Plan changes (billing) take the same lock.
 */
export async function selectOrganizationLocked<Columns extends Record<string, PgColumn>>(
  db: DbOrTx,
  organizationId: string,
  columns: Columns,
): Promise<SelectResultFields<Columns> | undefined> {
  // Drizzle cannot follow a generic selection through .for(): the rows are typed here instead.
  const rows = (await db
    .select(columns as Record<string, PgColumn>)
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('no key update')) as unknown as Array<SelectResultFields<Columns>>;
  return rows[0];
}

export const membersRepository = {
  /** The caller's role in an organization, or undefined when not a member. Runs on every scoped call. */
  async findRole(db: DbOrTx, organizationId: string, userId: string): Promise<Role | undefined> {
    const [row] = await db
      .select({ role: organizationMembers.role })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
    return row?.role;
  },

  /** One member with their user. */
  async find(db: DbOrTx, organizationId: string, userId: string): Promise<MemberRow | undefined> {
    const [row] = await db
      .select(memberColumns)
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId))
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
    return row;
  },

  /** Whether the account with this (lower-case) email belongs to the organization. */
  async isMemberByEmail(db: DbOrTx, organizationId: string, email: string): Promise<boolean> {
    const [row] = await db
      .select({ id: organizationMembers.id })
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId))
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(users.email, email.toLowerCase())));
    return Boolean(row);
  },

  async insert(db: DbOrTx, organizationId: string, userId: string, role: Role) {
    await db.insert(organizationMembers).values({ organizationId, userId, role });
  },

  async list(db: DbOrTx, organizationId: string): Promise<MemberRow[]> {
    return db
      .select(memberColumns)
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId))
      .where(eq(organizationMembers.organizationId, organizationId))
      .orderBy(asc(organizationMembers.createdAt));
  },

  /**
   * Locks the organization's admin rows (in id order, so concurrent callers cannot deadlock) so two
   * concurrent removals or demotions cannot both pass the last-admin check.
   */
  async countAdminsForUpdate(db: DbOrTx, organizationId: string): Promise<number> {
    const rows = await db
      .select({ id: organizationMembers.id })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.role, 'admin')))
      .orderBy(asc(organizationMembers.id))
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

  async updateRole(db: DbOrTx, organizationId: string, userId: string, role: Role): Promise<boolean> {
    const rows = await db
      .update(organizationMembers)
      .set({ role })
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)))
      .returning({ id: organizationMembers.id });
    return rows.length > 0;
  },

  async delete(db: DbOrTx, organizationId: string, userId: string): Promise<boolean> {
    const rows = await db
      .delete(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)))
      .returning({ id: organizationMembers.id });
    return rows.length > 0;
  },

  /**
   * Locks the organization row: every change of its membership (join, role change, removal) and
   * of its fields takes it first, so two joins cannot both take the last seat and member changes
   * never deadlock on each other. FOR NO KEY UPDATE: it does not block the foreign-key share locks
   * that every insert into the organization's tables takes.
   */
  lockOrganization(db: DbOrTx, organizationId: string) {
    return selectOrganizationLocked(db, organizationId, {
      name: organizations.name,
      maxUsers: organizations.maxUsers,
      subscriptionStatus: organizations.subscriptionStatus,
      trialEndDate: organizations.trialEndDate,
    });
  },
};
