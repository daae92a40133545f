import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export type UsageOutcome = 'counted' | 'package_limit' | 'trial_expired';

/**
 * Counts a new package against the organization's month and puts it on its shelf (`shelfId`, or
 * none), in one statement run last before commit. These are the two rows every intake of an
 * organization shares, so they stay locked as briefly as possible: no round trip to the app
 * happens while they are held.
 *
 * A month that has ended starts again at 1; past `max_packages_per_month` (-1 = unlimited) the
 * outcome is `package_limit` and the caller rolls back, so a refused item is counted nowhere. The
 * organization row is locked NO KEY UPDATE, like the UPDATE's own lock: it serialises intakes
 * without conflicting with the KEY SHARE locks their foreign-key checks already hold (FOR UPDATE
 * would, and two intakes would deadlock).
 */
export async function countAndShelvePackage(
  db: DbOrTx,
  organizationId: string,
  shelfId: string | null,
): Promise<UsageOutcome> {
  const result = await db.execute<{ outcome: UsageOutcome }>(sql`
    with org as (
      select id,
             subscription_status = 'trial' and trial_end_date < now() as trial_over,
             case when usage_reset_date is null or usage_reset_date <= now() then 0 else current_month_packages end as used,
             max_packages_per_month as cap
      from organizations where id = ${organizationId} for no key update
    ), counted as (
      update organizations o set
        current_month_packages = org.used + 1,
        usage_reset_date = case when o.usage_reset_date is null or o.usage_reset_date <= now()
                                then date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' + interval '1 month'
                                else o.usage_reset_date end
      from org
      where o.id = org.id and not org.trial_over and (org.cap = -1 or org.used < org.cap)
      returning o.id
    ), shelf as (
      update mailroom_locations set current_count = current_count + 1, updated_at = now()
      where organization_id = ${organizationId} and id = ${shelfId}
      returning id
    ) -- data-modifying CTEs always run, read or not
    select case when (select trial_over from org) then 'trial_expired'
                when exists (select 1 from counted) then 'counted'
                else 'package_limit' end as outcome`);
  return result.rows[0]!.outcome;
}
