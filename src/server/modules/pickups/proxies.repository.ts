import { and, asc, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recipientProxies } from '../../db/schema';

const ofRecipient = (organizationId: string, recipientId: string) =>
  and(eq(recipientProxies.organizationId, organizationId), eq(recipientProxies.recipientId, recipientId));

/** The people a recipient allows to collect for them (decision 031). */
export const proxiesRepository = {
  async list(db: DbOrTx, organizationId: string, recipientId: string) {
    return db
      .select({ id: recipientProxies.id, name: recipientProxies.name })
      .from(recipientProxies)
      .where(ofRecipient(organizationId, recipientId))
      .orderBy(asc(recipientProxies.name));
  },

  async count(db: DbOrTx, organizationId: string, recipientId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(recipientProxies)
      .where(ofRecipient(organizationId, recipientId));
    return row?.n ?? 0;
  },

  /** Answers undefined when the name (in any case) is already on the list. */
  async insert(db: DbOrTx, organizationId: string, recipientId: string, name: string) {
    const [row] = await db
      .insert(recipientProxies)
      .values({ organizationId, recipientId, name })
      .onConflictDoNothing()
      .returning({ id: recipientProxies.id, name: recipientProxies.name });
    return row;
  },

  async delete(db: DbOrTx, organizationId: string, recipientId: string, id: string): Promise<boolean> {
    const rows = await db
      .delete(recipientProxies)
      .where(and(ofRecipient(organizationId, recipientId), eq(recipientProxies.id, id)))
      .returning({ id: recipientProxies.id });
    return rows.length > 0;
  },
};
