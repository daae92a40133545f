import type { Db } from '../../db/client';
import { asPlatform } from '../../db/tenant-scope';

/** The notification queue (the outbox in notification_jobs) as an operator watches it. */
export type QueueStats = {
  /** Queued jobs whose time has come: what the workers should be sending now. */
  due: number;
  /** Queued jobs waiting for a later attempt (backoff). */
  scheduled: number;
  /** Jobs a worker holds right now. */
  sending: number;
  /** How long the oldest due job has waited past its time (0 when none is due). */
  oldestDueSeconds: number;
};

/**
 * Each count reads a partial index (notification_jobs_due_idx: status 'queued'; the lease sweep's
 * for 'sending'), never the sent history: cheap enough for every scrape and readiness probe.
 */
const QUEUE_STATS = `
  select
    (select count(*) from notification_jobs where status = 'queued' and next_attempt_at <= now())::int as due,
    (select count(*) from notification_jobs where status = 'queued' and next_attempt_at > now())::int as scheduled,
    (select count(*) from notification_jobs where status = 'sending')::int as sending,
    coalesce((select extract(epoch from now() - min(next_attempt_at)) from notification_jobs
               where status = 'queued' and next_attempt_at <= now()), 0)::float8 as oldest_due_seconds`;

export const operationsRepository = {
  /** One round trip to the database; throws when it cannot be reached. */
  async ping(db: Db): Promise<void> {
    await asPlatform(() => db.$client.query('select 1'));
  },

  /** Platform code: the queue of every organization (row-level security lets unscoped code see all). */
  async queueStats(db: Db): Promise<QueueStats> {
    const { rows } = await asPlatform(() =>
      db.$client.query<{ due: number; scheduled: number; sending: number; oldest_due_seconds: number }>(QUEUE_STATS),
    );
    const r = rows[0]!;
    return { due: r.due, scheduled: r.scheduled, sending: r.sending, oldestDueSeconds: r.oldest_due_seconds };
  },
};
