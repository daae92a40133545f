import { and, asc, count, eq, getTableColumns, inArray, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mailItems, mailroomLocations, mailrooms } from '../../db/schema';
import { RELEASED_STATUSES } from './mailrooms.repository';

export type LocationRow = typeof mailroomLocations.$inferSelect;
export type LocationWithMailroom = LocationRow & { mailroomName: string };
type LocationValues = Pick<
  typeof mailroomLocations.$inferInsert,
  'mailroomId' | 'name' | 'type' | 'capacity' | 'notes' | 'isActive'
>;

const scoped = (organizationId: string, id: string) =>
  and(eq(mailroomLocations.organizationId, organizationId), eq(mailroomLocations.id, id));

/** Items held at a location: not yet delivered or returned. */
const heldAt = (organizationId: string, id: string) =>
  and(
    eq(mailItems.organizationId, organizationId),
    eq(mailItems.locationId, id),
    notInArray(mailItems.status, RELEASED_STATUSES),
  );

function selectWithMailroom(db: DbOrTx) {
  return db
    .select({ ...getTableColumns(mailroomLocations), mailroomName: mailrooms.name })
    .from(mailroomLocations)
    .innerJoin(
      mailrooms,
      and(
        eq(mailrooms.organizationId, mailroomLocations.organizationId),
        eq(mailrooms.id, mailroomLocations.mailroomId),
      ),
    );
}

export const locationsRepository = {
  /**
   * The location, key-share locked for the rest of the transaction: an item being stored in it
   * keeps a concurrent delete waiting (that delete then sees the item and refuses).
   */
  async findById(db: DbOrTx, organizationId: string, id: string) {
    const [row] = await db
      .select()
      .from(mailroomLocations)
      .where(and(eq(mailroomLocations.organizationId, organizationId), eq(mailroomLocations.id, id)))
      .for('key share');
    return row;
  },

  /** An item leaves `from` and enters `to` (either may be none), in one statement; counts never go below zero. */
  async moveItem(db: DbOrTx, organizationId: string, from: string | null, to: string | null) {
    const ids = [from, to].filter((id): id is string => id !== null);
    if (ids.length === 0) return;
    await db
      .update(mailroomLocations)
      .set({
        currentCount: sql`greatest(0, ${mailroomLocations.currentCount} + case when ${mailroomLocations.id} = ${to} then 1 else -1 end)`,
        updatedAt: new Date(),
      })
      .where(and(eq(mailroomLocations.organizationId, organizationId), inArray(mailroomLocations.id, ids)));
  },

  /** The organization's locations with their mailroom's name, by mailroom name then location name. */
  async list(db: DbOrTx, organizationId: string, mailroomId?: string): Promise<LocationWithMailroom[]> {
    return selectWithMailroom(db)
      .where(
        and(
          eq(mailroomLocations.organizationId, organizationId),
          mailroomId ? eq(mailroomLocations.mailroomId, mailroomId) : undefined,
        ),
      )
      .orderBy(
        asc(sql`lower(${mailrooms.name})`),
        asc(mailrooms.name),
        asc(mailrooms.id),
        asc(sql`lower(${mailroomLocations.name})`),
        asc(mailroomLocations.name),
        asc(mailroomLocations.id),
      );
  },

  async findWithMailroom(db: DbOrTx, organizationId: string, id: string): Promise<LocationWithMailroom | undefined> {
    const [row] = await selectWithMailroom(db).where(scoped(organizationId, id));
    return row;
  },

  /** The location row, locked until the transaction ends: intake's count changes wait for it. */
  async findForUpdate(db: DbOrTx, organizationId: string, id: string): Promise<LocationRow | undefined> {
    const [row] = await db.select().from(mailroomLocations).where(scoped(organizationId, id)).for('update');
    return row;
  },

  async insert(db: DbOrTx, organizationId: string, values: LocationValues): Promise<LocationRow> {
    const [row] = await db
      .insert(mailroomLocations)
      .values({ ...values, organizationId })
      .returning();
    return row!;
  },

  async update(
    db: DbOrTx,
    organizationId: string,
    id: string,
    values: Partial<LocationValues>,
  ): Promise<LocationRow | undefined> {
    const [row] = await db
      .update(mailroomLocations)
      .set({ ...values, updatedAt: new Date() })
      .where(scoped(organizationId, id))
      .returning();
    return row;
  },

  async countHeldItems(db: DbOrTx, organizationId: string, id: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(mailItems).where(heldAt(organizationId, id));
    return row?.n ?? 0;
  },

  /** Delivered and returned items that pointed here keep their row; the foreign key nulls their location_id. */
  async delete(db: DbOrTx, organizationId: string, id: string): Promise<boolean> {
    const rows = await db
      .delete(mailroomLocations)
      .where(scoped(organizationId, id))
      .returning({ id: mailroomLocations.id });
    return rows.length > 0;
  },

  /**
   * Repair: sets current_count from the items actually held there. Answers the new count, or
   * undefined when the location is not the organization's.
   */
  async recount(db: DbOrTx, organizationId: string, locationId: string): Promise<number | undefined> {
    const held = db.select({ n: count() }).from(mailItems).where(heldAt(organizationId, locationId));
    const [row] = await db
      .update(mailroomLocations)
      .set({ currentCount: sql`(${held})`, updatedAt: new Date() })
      .where(scoped(organizationId, locationId))
      .returning({ currentCount: mailroomLocations.currentCount });
    return row?.currentCount;
  },
};
