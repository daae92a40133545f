import { sql } from 'drizzle-orm';
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
};
