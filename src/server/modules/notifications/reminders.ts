import type { Db } from '../../db/client';
import { waitingUnheldSql } from '../mail-items/overdue';

/**
 * One 'mail_item.reminder' event per item waiting (pending or notified) longer than its
 * organization's reminderAfterDays, where sendReminders is on, at most once per item and UTC day
 * (dedupe_key `reminder:<item>:<YYYY-MM-DD>`, so several workers scanning at once, or a scan run
 * twice, add nothing). Each organization's waiting items are read from the partial index
 * mail_items_org_waiting_arrived_idx by (organization, arrived_at): only items old enough are
 * visited, never the whole table. An item held at the recipient's request gets none until its
 * hold ends (decision 035). Items nobody can be told about (no recipient, unsubscribed, no
 * email and no phone) get no reminder, rather than a skipped row every day.
 */
const SCAN = `
  insert into notification_jobs (organization_id, channel, event, mail_item_id, recipient_id, dedupe_key)
  select i.organization_id, 'event', 'mail_item.reminder', i.id, i.recipient_id,
         'reminder:' || i.id || ':' || to_char($1::timestamptz at time zone 'UTC', 'YYYY-MM-DD')
  from organization_settings s
  cross join lateral (
    select m.id, m.organization_id, m.recipient_id
    from mail_items m
    where m.organization_id = s.organization_id
      and ${waitingUnheldSql({ status: 'm.status', heldUntil: 'm.held_until' }, '$1::timestamptz')}
      and m.arrived_at < $1::timestamptz - make_interval(days => s.reminder_after_days)
      and m.recipient_id is not null
  ) i
  join recipients r on r.organization_id = i.organization_id and r.id = i.recipient_id
  where s.send_reminders and s.reminder_after_days >= 0
    and r.notifications_opt_out_at is null
    and (r.email is not null or r.phone is not null)
  on conflict (dedupe_key) do nothing`;

/** Adds the reminders due at `now`; answers how many were added. */
export async function scanReminders(db: Db, now = new Date()): Promise<number> {
  const { rowCount } = await db.$client.query(SCAN, [now.toISOString()]);
  return rowCount ?? 0;
}
