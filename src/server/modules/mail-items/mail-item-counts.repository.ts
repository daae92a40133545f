import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mailItemCounts } from '../../db/schema';

/**
 * How many items an organization holds, by status, from the counts the mail_items triggers keep
 * (migration 0018, decision 021): a sum over a few rows, whatever the number of items.
 */
/** The statement of a total: items in any of `statuses`, or in all statuses when none are given. */
function totalQuery(db: DbOrTx, organizationId: string | SQLWrapper, statuses?: readonly string[]) {
  return db
    .select({ n: sql<number>`coalesce(sum(${mailItemCounts.n}), 0)::int` })
    .from(mailItemCounts)
    .where(
      statuses?.length
        ? and(eq(mailItemCounts.organizationId, organizationId), inArray(mailItemCounts.status, [...statuses]))
        : eq(mailItemCounts.organizationId, organizationId),
    );
}

export const mailItemCountsRepository = {
  /** The statement of `total`, to be a sub-select of another. */
  totalQuery,

  /** Items in any of `statuses`, or in all statuses when none are given. */
  async total(db: DbOrTx, organizationId: string, statuses?: readonly string[]): Promise<number> {
    const [row] = await totalQuery(db, organizationId, statuses);
    return row?.n ?? 0;
  },
};
