import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import type { WriteBlock } from '../../../contract';
import { WRITE_BLOCK_SQL } from './plan-access';

export type UsageOutcome = 'counted' | 'package_limit' | WriteBlock;

/**
 * The first instant of the current month in the organization's own timezone (of the enclosing
 * query's organizations row, `tz`): a desk in Auckland starts its month at its own midnight, not
 * at UTC's. Monthly package usage counts from it. The wall-clock month is truncated in the zone
 * and converted back, so the instant is right across DST changes.
 */
const monthStartIn = (tz: string) => `(date_trunc('month', now() at time zone ${tz}) at time zone ${tz})`;
/** When the organization's next month begins: a month is added in local time, before converting back. */
const nextMonthStartIn = (tz: string) =>
  `((date_trunc('month', now() at time zone ${tz}) + interval '1 month') at time zone ${tz})`;

// Spelled out in full: Drizzle renders a column without its table in a one-table select, and
// inside a subquery on history a bare "id" or "timezone" would not be the organization's.
const ORG_TIMEZONE = '"organizations"."timezone"';

/**
 * The packages an organization (of the enclosing query on organizations) logged this month, in
 * its timezone: its 'created' history rows since its month began (partial index
 * mail_item_history_org_created_idx: the month start is one value per organization, so it is an
 * index bound; written as a subquery, a value of its own, so that row-level security lets the
 * index use it: its time zone functions are not leakproof). History outlives deleted items, so deleting an item does not give its package
 * back, and no counter row is shared by every intake.
 */
export const packagesThisMonth = (): SQL<number> =>
  sql<number>`(select count(*)::int from mail_item_history h
               where h.organization_id = "organizations"."id" and h.action = 'created'
                 and h.created_at >= (select ${sql.raw(monthStartIn(ORG_TIMEZONE))}))`;

/** When this month's usage starts again: the start of the organization's next month, in its timezone. */
export const usageResetDate = (): SQL<Date> =>
  sql`${sql.raw(nextMonthStartIn(ORG_TIMEZONE))}`.mapWith((v: string) => new Date(v)) as SQL<Date>;

/**
 * Whether one more package may be logged, for an organization with a monthly cap or whose plan
 * is not plainly active (a trial, a cancelled or past-due subscription: `WRITE_BLOCK_SQL`).
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
    text: `select case when (${WRITE_BLOCK_SQL}) is not null then ${WRITE_BLOCK_SQL}
                  when o.max_packages_per_month <> -1
                       and (select count(*) from (select 1 from mail_item_history h
                             where h.organization_id = o.id and h.action = 'created'
                               and h.created_at >= (select ${monthStartIn('o.timezone')})
                             limit o.max_packages_per_month) used) >= o.max_packages_per_month then 'package_limit'
                  else 'counted' end as outcome
           from organizations o where o.id = $1`,
    values: [organizationId],
  });
  return rows[0]?.outcome ?? 'counted';
}
