import { sql } from 'drizzle-orm';
import { OVERDUE_HOURS } from '../../../contract';
import type { DbOrTx } from '../../db/client';

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
   * All four figures in one statement. "Today" starts at midnight in the organization's
   * timezone; pending means not yet handed over (pending or notified).
   */
  async stats(db: DbOrTx, organizationId: string): Promise<StatsRow> {
    const result = await db.execute<StatsRow>(sql`
      with day as (
        select (date_trunc('day', now() at time zone o.timezone) at time zone o.timezone) as start
        from organizations o where o.id = ${organizationId}
      )
      select
        count(*) filter (where m.arrived_at >= (select start from day))::int as todays,
        count(*) filter (where m.status in ('pending', 'notified'))::int as pending,
        count(*) filter (where m.status = 'delivered')::int as delivered,
        count(*)::int as total,
        (select count(*) from recipients r where r.organization_id = ${organizationId} and r.is_active)::int as active_recipients
      from mail_items m
      where m.organization_id = ${organizationId}`);
    return result.rows[0]!;
  },

  async recent(db: DbOrTx, organizationId: string, limit: number): Promise<RecentRow[]> {
    const result = await db.execute<RecentRow>(sql`
      select m.id, m.type, m.status, m.sender, m.arrived_at, r.first_name, r.last_name
      from mail_items m
      left join recipients r on r.organization_id = m.organization_id and r.id = m.recipient_id
      where m.organization_id = ${organizationId}
      order by m.arrived_at desc
      limit ${limit}`);
    return result.rows;
  },

  /**
   * The dashboard trend figures in one statement: items today and yesterday up to the same local
   * time of day (organization timezone), the overdue backlog, recipients created in the last 7
   * days, and the delivery rate (percent, unrounded) of the last 30 days and the 30 before.
   */
  async trends(db: DbOrTx, organizationId: string): Promise<TrendsRow> {
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
      )
      select
        count(*) filter (where m.arrived_at >= b.today_start and m.arrived_at <= now())::int as today,
        count(*) filter (where m.arrived_at >= b.yesterday_start and m.arrived_at < b.yesterday_now)::int as yesterday,
        count(*) filter (where m.status in ('pending', 'notified')
          and m.arrived_at < now() - make_interval(hours => ${OVERDUE_HOURS}))::int as overdue,
        (select count(*) from recipients r
          where r.organization_id = ${organizationId} and r.created_at >= now() - interval '7 days')::int as new_recipients,
        (100.0 * count(*) filter (where m.status = 'delivered' and m.arrived_at >= now() - interval '30 days')
          / nullif(count(*) filter (where m.arrived_at >= now() - interval '30 days'), 0))::float8 as rate_now,
        (100.0 * count(*) filter (where m.status = 'delivered' and m.arrived_at >= now() - interval '60 days' and m.arrived_at < now() - interval '30 days')
          / nullif(count(*) filter (where m.arrived_at >= now() - interval '60 days' and m.arrived_at < now() - interval '30 days'), 0))::float8 as rate_before
      from b
      left join mail_items m on m.organization_id = ${organizationId}`);
    return result.rows[0]!;
  },
};
