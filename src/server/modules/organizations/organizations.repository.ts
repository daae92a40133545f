import { asc, eq, getTableColumns } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { organizationMembers, organizations, organizationSettings } from '../../db/schema';

export type OrganizationRow = typeof organizations.$inferSelect;

export const organizationsRepository = {
  async insert(db: DbOrTx, values: typeof organizations.$inferInsert): Promise<OrganizationRow> {
    const [row] = await db.insert(organizations).values(values).returning();
    return row!;
  },

  async findById(db: DbOrTx, organizationId: string): Promise<OrganizationRow | undefined> {
    const [row] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
    return row;
  },

  /** The user's organizations with their role, oldest membership first. */
  async listForUser(db: DbOrTx, userId: string) {
    return db
      .select({ ...getTableColumns(organizations), role: organizationMembers.role })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(eq(organizationMembers.userId, userId))
      .orderBy(asc(organizationMembers.createdAt));
  },

  async update(db: DbOrTx, organizationId: string, values: Partial<typeof organizations.$inferInsert>) {
    const [row] = await db
      .update(organizations)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(organizations.id, organizationId))
      .returning();
    return row;
  },

  /** Every organization starts with the specification's default settings (the column defaults). */
  async insertDefaultSettings(db: DbOrTx, organizationId: string) {
    await db.insert(organizationSettings).values({ organizationId });
  },
};
