import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/**
 * Messages to the staff channel an admin picked in the organization's Slack integration
 * (decision 064): the events a desk should hear of at once, not a recipient's mail.
 */
export const STAFF_EVENTS = {
  /** A scheduled roster run failed for good (the admins' email says the same). */
  rosterFailed: 'staff.roster_failed',
  /** An item was logged without a recipient and waits under Needs a recipient. */
  needsRecipient: 'staff.needs_recipient',
} as const;
export type StaffEvent = (typeof STAFF_EVENTS)[keyof typeof STAFF_EVENTS];

/**
 * Queues one staff message in the notifications outbox (decision 010), in the caller's
 * transaction where there is one: a 'slack' job of the organization's active Slack integration
 * that has a staff channel, or nothing at all when it has none (one INSERT … SELECT, so the
 * callers need to know nothing about integrations). On this floor, below every module, so the
 * roster and mail items need nothing from notifications. `dedupeKey` makes a repeat queue nothing.
 * Answers how many were queued (0 or 1).
 */
export async function queueStaffMessage(
  db: DbOrTx,
  message: {
    organizationId: string;
    event: StaffEvent;
    text: string;
    mailItemId?: string | null;
    dedupeKey?: string | null;
  },
): Promise<number> {
  const result = await db.execute(sql`
    insert into notification_jobs
      (organization_id, channel, event, mail_item_id, integration_id, destination, payload, dedupe_key)
    select i.organization_id, 'slack', ${message.event}, ${message.mailItemId ?? null}::uuid, i.id,
           coalesce('#' || (i.config->'slackSettings'->>'staffChannelName'), i.config->'slackSettings'->>'staffChannelId'),
           jsonb_build_object('staff', true, 'text', ${message.text}::text),
           ${message.dedupeKey ?? null}::text
    from integrations i
    where i.organization_id = ${message.organizationId}::uuid
      and i.type = 'slack'
      and i.is_active
      and coalesce(i.config->'slackSettings'->>'staffChannelId', '') <> ''
    order by i.created_at
    limit 1
    on conflict (dedupe_key) do nothing`);
  return result.rowCount ?? 0;
}
