import { eq, sql } from 'drizzle-orm';
import { BILLING_MESSAGES, type WriteBlock } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { organizations } from '../../db/schema';
import { AppError } from '../../lib/errors';

/**
 * What an organization may add while its plan is not in force: reads stay open, new items,
 * members and integrations answer 402 with the reason. The rule itself is `writeBlockOf` in the
 * contract (the screens explain it with the same code); `WRITE_BLOCK_SQL` is its twin for the
 * statements that decide inside the database.
 */

const MESSAGES: Record<WriteBlock, string> = {
  trial_expired: BILLING_MESSAGES.trialEnded,
  subscription_inactive: BILLING_MESSAGES.subscriptionInactive,
};

export const writeBlockError = (block: WriteBlock) => new AppError(402, MESSAGES[block], block);

/** `writeBlockOf` over the organizations row aliased `o`: null, 'trial_expired' or 'subscription_inactive'. */
export const WRITE_BLOCK_SQL = `case when o.subscription_status = 'trial'
           then case when o.trial_end_date < now() then 'trial_expired' end
         when o.subscription_status <> 'active' then 'subscription_inactive' end`;

export async function writeBlockFor(db: DbOrTx, organizationId: string): Promise<WriteBlock | null> {
  const [row] = await db
    .select({ block: sql<WriteBlock | null>`${sql.raw(WRITE_BLOCK_SQL.replaceAll('o.', '"organizations".'))}` })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row?.block ?? null;
}
