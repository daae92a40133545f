import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mailItemCounts } from '../../db/schema';

/**
 * How many items an organization holds, by status, from the counts the mail_items triggers keep
 * (migration 0018, decision 021): a sum over a few rows, whatever the number of items.
 */
export const mailItemCountsRepository = {
  /** Items in any of `statuses`, or in all statuses when none are given. */
  async total(db: DbOrTx, organizationId: string, statuses?: readonly string[]): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`coalesce(sum(${mailItemCounts.n}), 0)::int` })
      .from(mailItemCounts)
      .where(
        statuses?.length
          ? and(eq(mailItemCounts.organizationId, organizationId), inArray(mailItemCounts.status, [...statuses]))
          : eq(mailItemCounts.organizationId, organizationId),
      );
    return row?.n ?? 0;
  },

  /** Every status the organization has items in, with how many. */
  async byStatus(db: DbOrTx, organizationId: string): Promise<Map<string, number>> {
    const rows = await db
      .select({ status: mailItemCounts.status, n: sql<number>`sum(${mailItemCounts.n})::int` })
      .from(mailItemCounts)
      .where(eq(mailItemCounts.organizationId, organizationId))
      .groupBy(mailItemCounts.status);
    return new Map(rows.filter((r) => r.n !== 0).map((r) => [r.status, r.n]));
  },
};
