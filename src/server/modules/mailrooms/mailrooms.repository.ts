import { and, asc, count, eq, getTableColumns, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mailItems, mailroomLocations, mailrooms } from '../../db/schema';
import { HANDED_OVER_STATUSES } from '../../../contract';

export type MailroomRow = typeof mailrooms.$inferSelect;
export type MailroomWithCount = MailroomRow & { locationCount: number };

/** Item statuses that no longer occupy storage; every other status is "held". */
export const RELEASED_STATUSES = [...HANDED_OVER_STATUSES];

/** Mailrooms with their number of storage locations (grouped by the primary key). */
function selectWithCount(db: DbOrTx) {
  return db
    .select({ ...getTableColumns(mailrooms), locationCount: count(mailroomLocations.id) })
    .from(mailrooms)
    .leftJoin(
      mailroomLocations,
      and(
        eq(mailroomLocations.organizationId, mailrooms.organizationId),
        eq(mailroomLocations.mailroomId, mailrooms.id),
      ),
    );
}

const scoped = (organizationId: string, id: string) =>
  and(eq(mailrooms.organizationId, organizationId), eq(mailrooms.id, id));

export const mailroomsRepository = {
  /** The organization's mailrooms with their number of storage locations, by name. */
  async list(db: DbOrTx, organizationId: string): Promise<MailroomWithCount[]> {
    return selectWithCount(db)
      .where(eq(mailrooms.organizationId, organizationId))
      .groupBy(mailrooms.id)
      .orderBy(asc(sql`lower(${mailrooms.name})`), asc(mailrooms.name), asc(mailrooms.id));
  },

  async findWithCount(db: DbOrTx, organizationId: string, id: string): Promise<MailroomWithCount | undefined> {
    const [row] = await selectWithCount(db).where(scoped(organizationId, id)).groupBy(mailrooms.id);
    return row;
  },

  /**
   * Locks the mailroom row and answers it. `share` keeps it from being deleted while a location is
   * placed in it; `edit` serialises edits without blocking those; `update` (for deleting) waits
   * for both and blocks new ones.
   */
  async lock(db: DbOrTx, organizationId: string, id: string, mode: 'share' | 'edit' | 'update') {
    const [row] = await db
      .select()
      .from(mailrooms)
      .where(scoped(organizationId, id))
      .for(mode === 'share' ? 'key share' : mode === 'edit' ? 'no key update' : 'update');
    return row;
  },

  async insert(
    db: DbOrTx,
    organizationId: string,
    values: Pick<typeof mailrooms.$inferInsert, 'name' | 'description' | 'isActive'>,
  ): Promise<MailroomRow> {
    const [row] = await db
      .insert(mailrooms)
      .values({ ...values, organizationId })
      .returning();
    return row!;
  },

  async update(
    db: DbOrTx,
    organizationId: string,
    id: string,
    values: Partial<Pick<typeof mailrooms.$inferInsert, 'name' | 'description' | 'isActive'>>,
  ): Promise<MailroomRow | undefined> {
    const [row] = await db
      .update(mailrooms)
      .set({ ...values, updatedAt: new Date() })
      .where(scoped(organizationId, id))
      .returning();
    return row;
  },

  async countLocations(db: DbOrTx, organizationId: string, id: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(mailroomLocations)
      .where(and(eq(mailroomLocations.organizationId, organizationId), eq(mailroomLocations.mailroomId, id)));
    return row?.n ?? 0;
  },

  /** Items kept in the mailroom itself (no storage location) that are not yet delivered or returned. */
  async countHeldItems(db: DbOrTx, organizationId: string, id: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(mailItems)
      .where(
        and(
          eq(mailItems.organizationId, organizationId),
          eq(mailItems.mailroomId, id),
          notInArray(mailItems.status, RELEASED_STATUSES),
        ),
      );
    return row?.n ?? 0;
  },

  /** Items that referenced the mailroom keep their row; the foreign key sets their mailroom_id to null. */
  async delete(db: DbOrTx, organizationId: string, id: string): Promise<boolean> {
    const rows = await db.delete(mailrooms).where(scoped(organizationId, id)).returning({ id: mailrooms.id });
    return rows.length > 0;
  },
};
