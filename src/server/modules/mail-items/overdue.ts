import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { OVERDUE_HOURS, WAITING_STATUSES } from '../../../contract';

/*
 * The overdue rule, in its one place: an item is overdue when it is waiting (WAITING_STATUSES)
 * and arrived more than OVERDUE_HOURS ago, unless it is held now at the recipient's request
 * (decision 035). Reminders use the same "waiting and not held" part with the organization's own
 * number of days. Three renderings of the one rule live here side by side, because each reader
 * needs its own form: JavaScript for a single item's reply, an expression on one row for the
 * lists PostgreSQL builds, and a count the indexes can answer alone for the counters
 * (round-trip.test.ts compares the first two on every branch; holds.test.ts all three).
 */

const WAITING_SQL = WAITING_STATUSES.map((s) => `'${s}'`).join(', ');
const OVERDUE_MS = OVERDUE_HOURS * 3600_000;

/** `status` is waiting and `heldUntil` (a column or an expression) is no hold at `at`, in SQL. */
export function waitingUnheldSql(c: { status: string; heldUntil: string }, at: string): string {
  return `${c.status} in (${WAITING_SQL}) and (${c.heldUntil} is null or ${c.heldUntil} <= ${at})`;
}

/** Whether one item is overdue at `now` (ms). */
export function isOverdue(
  item: { status: string; arrivedAt: Date; heldUntil: Date | null },
  now = Date.now(),
): boolean {
  return (
    (WAITING_STATUSES as readonly string[]).includes(item.status) &&
    now - item.arrivedAt.getTime() > OVERDUE_MS &&
    !(item.heldUntil && item.heldUntil.getTime() > now)
  );
}

/** The same for one row of a list, as an SQL expression on the row's columns. */
export function overdueRowSql(c: { status: string; arrivedAt: string; heldUntil: string }): string {
  return `(${c.arrivedAt} < now() - make_interval(hours => ${Number(OVERDUE_HOURS)}) and ${waitingUnheldSql(c, 'now()')})`;
}

/**
 * The overdue backlog of an organization as one SQL value: items waiting longer than
 * OVERDUE_HOURS, less those held now. Both are ranges of partial indexes read alone (the waiting
 * one, and the few items on hold), so the count stays an index-only scan however many items
 * wait; Pending Pickups' counters, the dashboard and the reports share it, so a held item is
 * overdue nowhere.
 */
export function overdueCountSql(organizationId: string | SQLWrapper): SQL {
  const cutoff = sql`now() - make_interval(hours => ${OVERDUE_HOURS})`;
  const waiting = sql.raw(`m.status in (${WAITING_SQL})`);
  return sql`(
    (select count(*) from mail_items m
      where m.organization_id = ${organizationId} and ${waiting} and m.arrived_at < ${cutoff})
    - (select count(*) from mail_items m
      where m.organization_id = ${organizationId} and ${waiting}
        and m.held_until is not null and m.held_until > now() and m.arrived_at < ${cutoff})
  )::int`;
}
