import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

export const healthRepository = {
  /** One round trip to the database; throws when it cannot be reached. */
  async ping(db: Db): Promise<void> {
    await db.execute(sql`select 1`);
  },
};
