import { sql } from 'drizzle-orm';
import { overdueCountSql } from '../mail-items/overdue';
import type { DbOrTx } from '../../db/client';
import { isPreparedPageSize, pageClause, queryPrepared } from '../../db/prepared';

export type StatsRow = { todays: number; pending: number; delivered: number; total: number; active_recipients: number };
export type RecentRow = {
  id: string;
  type: string;
  status: string;
  sender: string | null;
  arrived_at: Date;
  first_name: string | null;
  last_name: string | null;
};

export type TrendsRow = {
  today: number;
  yesterday: number;
  overdue: number;
  new_recipients: number;
  rate_now: number | null;
  rate_before: number | null;
};

export const dashboardRepository = {
  /**
   * All four figures in one statement, none of them by counting items. "Today" starts at
   * midnight in the organization's timezone: the kept arrivals of the 15-minute buckets since
   * then (decision 027; a busy desk logs thousands of items a day). Pending means not yet
   * handed over (pending or notified); the whole-organization figures come from the kept
   * counts (decision 021).
   */
  async stats(db: DbOrTx, organizationId: string): Promise<StatsRow> {
    const [row] = await queryPrepared<StatsRow>(
      db,
      sql`
      with day as (
        select (date_trunc('day', now() at time zone o.timezone) at time zone o.timezone) as start
        from organizations o where o.id = ${organizationId}
      ),
      counts as (
        select
          coalesce(sum(c.n) filter (where c.status in ('pending', 'notified')), 0) as pending,
          coalesce(sum(c.n) filter (where c.status = 'delivered'), 0) as delivered,
          coalesce(sum(c.n), 0) as total
        from mail_item_counts c where c.organization_id = ${organizationId}
      )
      select
        (select coalesce(sum(a.n), 0) from mail_item_arrivals a
          where a.organization_id = ${organizationId} and a.bucket >= (select start from day))::int as todays,
        counts.pending::int as pending,
        counts.delivered::int as delivered,
        counts.total::int as total,
        (select count(*) from recipients r where r.organization_id = ${organizationId} and r.is_active)::int as active_recipients
      from counts`,
    );
    return row!;
  },

  /**
   * The newest items, picked from mail_items alone and then given their recipient by key (a
   * plan without statistics reads only these). Prepared, with the count in its text (pageClause).
   */
  async recent(db: DbOrTx, organizationId: string, limit: number): Promise<RecentRow[]> {
    return queryPrepared<RecentRow>(
      db,
      sql`
      select m.id, m.type, m.status, m.sender, m.arrived_at, r.first_name, r.last_name
      from (
        select id, organization_id, recipient_id, type, status, sender, arrived_at from mail_items
        where organization_id = ${organizationId}
        order by arrived_at desc, id desc
        ${pageClause({ limit, offset: 0 })}
      ) m
      left join lateral (select first_name, last_name from recipients r
                         where r.organization_id = m.organization_id and r.id = m.recipient_id limit 1) r on true
      order by m.arrived_at desc, m.id desc`,
      { prepare: isPreparedPageSize(limit) },
    );
  },

  /**
   * The dashboard trend figures in one statement: items today and yesterday up to the same local
   * time of day (organization timezone), the overdue backlog, recipients created in the last 7
   * days, and the delivery rate (percent, unrounded) of the last 30 days and the 30 before.
   */
  async trends(db: DbOrTx, organizationId: string): Promise<TrendsRow> {
    // Each figure reads only its own range of the arrival index (or the waiting index for the
    // overdue backlog), never the whole organization; the bounds are sub-selects, values of
    // their own, so that they bound the index scans under row-level security too.
    const result = await db.execute<TrendsRow>(sql`
      with o as (
        select o.timezone as tz, (now() at time zone o.timezone) as local_now
        from organizations o where o.id = ${organizationId}
      ),
      b as (
        select
          (date_trunc('day', local_now) at time zone tz) as today_start,
          ((date_trunc('day', local_now) - interval '1 day') at time zone tz) as yesterday_start,
          ((local_now - interval '1 day') at time zone tz) as yesterday_now
        from o
      ),
      window60 as (
        select
          count(*) filter (where m.status = 'delivered' and m.arrived_at >= now() - interval '30 days') as delivered_now,
          count(*) filter (where m.arrived_at >= now() - interval '30 days') as arrived_now,
          count(*) filter (where m.status = 'delivered' and m.arrived_at < now() - interval '30 days') as delivered_before,
          count(*) filter (where m.arrived_at < now() - interval '30 days') as arrived_before
        from mail_items m
        where m.organization_id = ${organizationId} and m.arrived_at >= now() - interval '60 days'
      )
      select
        (select count(*) from mail_items m where m.organization_id = ${organizationId}
          and m.arrived_at >= (select today_start from b) and m.arrived_at <= now())::int as today,
        (select count(*) from mail_items m where m.organization_id = ${organizationId}
          and m.arrived_at >= (select yesterday_start from b)
          and m.arrived_at < (select yesterday_now from b))::int as yesterday,
        ${overdueCountSql(organizationId)} as overdue,
        (select count(*) from recipients r
          where r.organization_id = ${organizationId} and r.created_at >= now() - interval '7 days')::int as new_recipients,
        (100.0 * w.delivered_now / nullif(w.arrived_now, 0))::float8 as rate_now,
        (100.0 * w.delivered_before / nullif(w.arrived_before, 0))::float8 as rate_before
      from window60 w`);
    return result.rows[0]!;
  },
};
