import { and, asc, count, eq, getTableColumns, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mailItems, mailroomLocations, mailrooms } from '../../db/schema';
import { RELEASED_STATUSES } from './mailrooms.repository';

export type LocationRow = typeof mailroomLocations.$inferSelect;
export type LocationWithMailroom = LocationRow & { mailroomName: string; currentCount: number };
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

/**
 * Items held at the location (not delivered or returned), counted from the partial index
 * mail_items_org_held_location_idx: always true, and no counter row for every intake to lock.
 * Columns spelled out in full: Drizzle renders them without their table in a one-table select.
 */
const heldCount = sql<number>`(select count(*)::int from mail_items i
  where i.organization_id = "mailroom_locations"."organization_id" and i.location_id = "mailroom_locations"."id"
    and i.status not in (${sql.raw(RELEASED_STATUSES.map((s) => `'${s}'`).join(', '))}))`;

function selectWithMailroom(db: DbOrTx) {
  return db
    .select({ ...getTableColumns(mailroomLocations), mailroomName: mailrooms.name, currentCount: heldCount })
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

  /**
   * The location with its mailroom's name, its row locked until the transaction ends: intake into
   * it (a foreign-key share lock) waits; the mailroom is not locked. Its currentCount is read
   * before the lock was granted: count again (countHeldItems) for a decision.
   */
  async findForUpdate(db: DbOrTx, organizationId: string, id: string): Promise<LocationWithMailroom | undefined> {
    const [row] = await selectWithMailroom(db)
      .where(scoped(organizationId, id))
      .for('update', { of: mailroomLocations });
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
};
