import { asc, eq, getTableColumns } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { organizationMembers, organizations, organizationSettings } from '../../db/schema';
import { packagesThisMonth, usageResetDate } from './usage.repository';

export type OrganizationRow = typeof organizations.$inferSelect & {
  currentMonthPackages: number;
  usageResetDate: Date;
};

/** The organization's columns, with this month's package usage counted from history. */
const organizationColumns = () => ({
  ...getTableColumns(organizations),
  currentMonthPackages: packagesThisMonth(),
  usageResetDate: usageResetDate(),
});

export const organizationsRepository = {
  async insert(db: DbOrTx, values: typeof organizations.$inferInsert): Promise<OrganizationRow> {
    const [row] = await db.insert(organizations).values(values).returning(organizationColumns());
    return row!;
  },

  async findById(db: DbOrTx, organizationId: string): Promise<OrganizationRow | undefined> {
    const [row] = await db
      .select(organizationColumns())
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    return row;
  },

  /** The user's organizations with their role, oldest membership first. */
  async listForUser(db: DbOrTx, userId: string) {
    return db
      .select({ ...organizationColumns(), role: organizationMembers.role })
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
      .returning(organizationColumns());
    return row;
  },

  /** Every organization starts with the specification's default settings (the column defaults). */
  async insertDefaultSettings(db: DbOrTx, organizationId: string) {
    await db.insert(organizationSettings).values({ organizationId });
  },
};
