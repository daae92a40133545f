import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mailroomLocations } from '../../db/schema';

export const locationsRepository = {
  async findById(db: DbOrTx, organizationId: string, id: string) {
    const [row] = await db
      .select()
      .from(mailroomLocations)
      .where(and(eq(mailroomLocations.organizationId, organizationId), eq(mailroomLocations.id, id)));
    return row;
  },

  /** Moves an item into (+1) or out of (-1) a location; the count never goes below zero. */
  async adjustCount(db: DbOrTx, organizationId: string, id: string, delta: number) {
    await db
      .update(mailroomLocations)
      .set({ currentCount: sql`greatest(0, ${mailroomLocations.currentCount} + ${delta})`, updatedAt: new Date() })
      .where(and(eq(mailroomLocations.organizationId, organizationId), eq(mailroomLocations.id, id)));
  },
};
