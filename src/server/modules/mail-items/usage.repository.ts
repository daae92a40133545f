import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';

export type UsageOutcome = 'counted' | 'package_limit' | 'trial_expired';

/** The first instant of the current month, UTC: monthly package usage counts from it. */
const MONTH_START_SQL = `date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'`;
const MONTH_START = sql.raw(MONTH_START_SQL);

/**
 * The packages an organization (of the enclosing query on organizations) logged this month: its 'created' history rows since the month
 * began (partial index mail_item_history_org_created_idx). History outlives deleted items, so
 * deleting an item does not give its package back, and no counter row is shared by every intake.
 */
export const packagesThisMonth = (): SQL<number> =>
  // Spelled out in full: Drizzle renders a column without its table in a one-table select, and
  // inside this subquery a bare "id" would be the history row's.
  sql<number>`(select count(*)::int from mail_item_history h
               where h.organization_id = "organizations"."id" and h.action = 'created' and h.created_at >= ${MONTH_START})`;

/** When this month's usage starts again. */
export const usageResetDate = (): SQL<Date> =>
  sql`${MONTH_START} + interval '1 month'`.mapWith((v: string) => new Date(v)) as SQL<Date>;

/**
 * Whether one more package may be logged, for an organization with a monthly cap or on trial.
 * Call it inside the intake's transaction, before the item is written: the advisory lock taken
 * first makes this organization's intakes wait for each other until commit, so the count read
 * next (a fresh snapshot, after the lock) includes every package committed before. Unlimited,
 * paying organizations never come here and never wait.
 */
export async function checkPackageAllowance(client: pg.PoolClient, organizationId: string): Promise<UsageOutcome> {
  await client.query({
    name: 'usage_lock',
    text: `select pg_advisory_xact_lock(hashtextextended('intake:' || $1, 0))`,
    values: [organizationId],
  });
  const { rows } = await client.query<{ outcome: UsageOutcome }>({
    name: 'usage_allowance',
    text: `select case when o.subscription_status = 'trial' and o.trial_end_date < now() then 'trial_expired'
                  when o.max_packages_per_month <> -1
                       and (select count(*) from (select 1 from mail_item_history h
                             where h.organization_id = o.id and h.action = 'created'
                               and h.created_at >= ${MONTH_START_SQL}
                             limit o.max_packages_per_month) used) >= o.max_packages_per_month then 'package_limit'
                  else 'counted' end as outcome
           from organizations o where o.id = $1`,
    values: [organizationId],
  });
  return rows[0]?.outcome ?? 'counted';
}
