import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { OVERDUE_HOURS } from '../../../contract';

/**
 * The overdue backlog of an organization as one SQL value: items waiting (pending or notified)
 * longer than OVERDUE_HOURS, less those held now at the recipient's request (decision 035). Both
 * are ranges of partial indexes read alone (the waiting one, and the few items on hold), so the
 * count stays an index-only scan however many items wait; Pending Pickups' counters, the
 * dashboard and the reports share it, so a held item is overdue nowhere.
 */
export function overdueCountSql(organizationId: string | SQLWrapper): SQL {
  const cutoff = sql`now() - make_interval(hours => ${OVERDUE_HOURS})`;
  return sql`(
    (select count(*) from mail_items m
      where m.organization_id = ${organizationId} and m.status in ('pending', 'notified') and m.arrived_at < ${cutoff})
    - (select count(*) from mail_items m
      where m.organization_id = ${organizationId} and m.status in ('pending', 'notified')
        and m.held_until is not null and m.held_until > now() and m.arrived_at < ${cutoff})
  )::int`;
}
