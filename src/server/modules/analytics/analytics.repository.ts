import { sql } from 'drizzle-orm';
import { overdueCountSql } from '../mail-items/overdue';
import type { DbOrTx } from '../../db/client';

type Named = { name: string; count: number };
export type AnalyticsRow = {
  per_day: Array<{ date: string; count: number }>;
  by_courier: Named[];
  by_type: Named[];
  average_hours: number | null;
  p90_hours: number | null;
  total: number;
  delivered: number;
  overdue: number;
  busiest_hours: Array<{ hour: number; count: number }>;
  top_recipients: Array<{ recipientId: string; name: string; count: number }>;
};

export const analyticsRepository = {
  /**
   * Every figure of the reports screen in one statement. `days` counts whole days in the
   * organization's timezone (1 = today); 0 means all time, from the day of the first item.
   * Overdue is the current backlog (pending or notified for more than OVERDUE_HOURS), not range-bound.
   */
  async analytics(db: DbOrTx, organizationId: string, days: number): Promise<AnalyticsRow> {
    const result = await db.execute<AnalyticsRow>(sql`
      with o as (
        select o.timezone as tz, (now() at time zone o.timezone)::date as today
        from organizations o where o.id = ${organizationId}
      ),
      bounds as (
        select o.tz, o.today,
          case when ${days}::int = 0
            then (select min((m.arrived_at at time zone o.tz)::date) from mail_items m where m.organization_id = ${organizationId})
            else o.today - (${days}::int - 1)
          end as first_day
        from o
      ),
      range as (
        select b.*, case when ${days}::int = 0 then '-infinity'::timestamptz else (b.first_day::timestamp at time zone b.tz) end as start
        from bounds b
      ),
      items as (
        select m.*, (m.arrived_at at time zone r.tz) as local_arrived
        from mail_items m, range r
        where m.organization_id = ${organizationId} and m.arrived_at >= r.start
      ),
      per_day as (
        select coalesce(json_agg(json_build_object('date', to_char(d.day, 'YYYY-MM-DD'), 'count', coalesce(c.n, 0)) order by d.day), '[]'::json) as v
        from range r
        cross join lateral generate_series(r.first_day::timestamp, r.today::timestamp, interval '1 day') as d(day)
        left join (select local_arrived::date as day, count(*)::int as n from items group by 1) c on c.day = d.day::date
      ),
      by_courier as (
        select coalesce(json_agg(json_build_object('name', name, 'count', n) order by n desc, name), '[]'::json) as v
        from (select coalesce(nullif(btrim(courier_company), ''), 'Unknown') as name, count(*)::int as n from items group by 1) x
      ),
      by_type as (
        select coalesce(json_agg(json_build_object('name', name, 'count', n) order by n desc, name), '[]'::json) as v
        from (select coalesce(nullif(btrim(type), ''), 'Unknown') as name, count(*)::int as n from items group by 1) x
      ),
      pickup as (
        select
          round(avg(h)::numeric, 1)::float8 as average,
          round((percentile_cont(0.9) within group (order by h))::numeric, 1)::float8 as p90
        from (
          select extract(epoch from (m.delivered_at - m.arrived_at)) / 3600.0 as h
          from mail_items m, range r
          where m.organization_id = ${organizationId} and m.status = 'delivered'
            and m.delivered_at is not null and m.delivered_at >= r.start
        ) x
      ),
      hours as (
        select json_agg(json_build_object('hour', h, 'count', coalesce(c.n, 0)) order by h) as v
        from generate_series(0, 23) as h
        left join (select extract(hour from local_arrived)::int as hr, count(*)::int as n from items group by 1) c on c.hr = h
      ),
      top as (
        select coalesce(json_agg(json_build_object('recipientId', id, 'name', name, 'count', n) order by n desc, name, id), '[]'::json) as v
        from (
          select r.id, btrim(r.first_name || ' ' || r.last_name) as name, count(*)::int as n
          from items i join recipients r on r.organization_id = i.organization_id and r.id = i.recipient_id
          group by r.id
          order by n desc, name, r.id
          limit 10
        ) x
      )
      select
        (select v from per_day) as per_day,
        (select v from by_courier) as by_courier,
        (select v from by_type) as by_type,
        (select average from pickup) as average_hours,
        (select p90 from pickup) as p90_hours,
        (select count(*)::int from items) as total,
        (select count(*)::int from items where status = 'delivered') as delivered,
        ${overdueCountSql(organizationId)} as overdue,
        (select v from hours) as busiest_hours,
        (select v from top) as top_recipients`);
    return result.rows[0]!;
  },
};
