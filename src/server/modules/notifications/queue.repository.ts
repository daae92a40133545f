import { and, desc, eq, getTableColumns, ne } from 'drizzle-orm';
import type { NotificationMessage } from '../../../contract';
import type { Db, DbOrTx } from '../../db/client';
import { notificationJobs } from '../../db/schema';
import { iso, isoOrNull } from '../../lib/time';

export type JobRow = typeof notificationJobs.$inferSelect;
export type JobInsert = typeof notificationJobs.$inferInsert;
type MessageChannel = NotificationMessage['channel'];

/**
 * Retry delays: 30 s doubling, at most 8 h, ±10 % jitter. The 13 attempts of a job (max_attempts)
 * span about 24.5 hours: a receiver down for most of a day still gets its messages.
 */
const BACKOFF_BASE_MS = 30_000;
const BACKOFF_CAP_MS = 8 * 3600_000;

export function backoffMs(attempts: number, random = Math.random): number {
  const exact = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(exact * (0.9 + 0.2 * random()));
}

/**
 * A notification_jobs row as node-postgres answers a hand-written `returning j.*` (snake_case
 * names), under the schema's keys like a Drizzle select; a null payload reads as {}.
 */
const JOB_COLUMNS = Object.entries(getTableColumns(notificationJobs));
const toJob = (r: Record<string, unknown>): JobRow =>
  ({
    ...Object.fromEntries(JOB_COLUMNS.map(([key, column]) => [key, r[column.name] ?? null])),
    payload: r.payload ?? {},
  }) as JobRow;

/**
 * Takes up to `limit` due jobs: queued ones whose time has come (oldest first, from the partial
 * index notification_jobs_due_idx). SKIP LOCKED lets any number of workers claim at once without
 * waiting for each other or taking the same row. attempts is incremented here, so it also serves
 * as a fencing token: only the holder of this attempt can record its outcome.
 */
const CLAIM = `
  update notification_jobs j
  set status = 'sending', locked_until = now() + make_interval(secs => $2), attempts = j.attempts + 1, updated_at = now()
  where j.id in (
    select id from notification_jobs
    where status = 'queued' and next_attempt_at <= now()
    order by next_attempt_at
    limit $1
    for update skip locked
  )
  returning j.*`;

/**
 * Jobs whose worker died while sending (its lease ran out) go back to the queue. Rare, so run
 * every half minute rather than in every claim.
 */
const RECOVER = `
  update notification_jobs set status = 'queued', next_attempt_at = now(), locked_until = null, updated_at = now()
  where id in (
    select id from notification_jobs where status = 'sending' and locked_until < now() for update skip locked
  )`;

/** A message the provider accepted, as the worker records it: the attempt that sent it and the answer. */
export type SentOutcome = {
  id: string;
  attempts: number;
  providerId: string | null;
  responseStatus: number | null;
  latencyMs: number;
};

export const queueRepository = {
  async claim(db: Db, limit: number, leaseMs: number): Promise<JobRow[]> {
    if (limit <= 0) return [];
    const { rows } = await db.$client.query(CLAIM, [limit, leaseMs / 1000]);
    return rows.map(toJob);
  },

  async recoverExpired(db: Db): Promise<number> {
    const { rowCount } = await db.$client.query(RECOVER);
    return rowCount ?? 0;
  },

  /** The attempt succeeded; false when the job is no longer ours (lease lost and taken again). */
  async markSent(
    db: DbOrTx,
    job: Pick<JobRow, 'id' | 'attempts'>,
    outcome: { providerId: string | null; responseStatus: number | null; latencyMs: number },
  ): Promise<boolean> {
    const rows = await db
      .update(notificationJobs)
      .set({
        status: 'sent',
        sentAt: new Date(),
        lockedUntil: null,
        lastError: null,
        providerId: outcome.providerId?.slice(0, 255) ?? null,
        responseStatus: outcome.responseStatus,
        latencyMs: outcome.latencyMs,
        updatedAt: new Date(),
      })
      .where(ownedAttempt(job))
      .returning({ id: notificationJobs.id });
    return rows.length > 0;
  },

  /**
   * markSent for many jobs in one statement (the worker batches the outcomes that arrive in the
   * same turn of the event loop); answers the ids that were still ours.
   */
  async markSentMany(db: Db, jobs: SentOutcome[]): Promise<Set<string>> {
    const { rows } = await db.$client.query<{ id: string }>(
      `update notification_jobs j
       set status = 'sent', sent_at = now(), locked_until = null, last_error = null, provider_id = o.provider_id,
           response_status = o.response_status, latency_ms = o.latency_ms, updated_at = now()
       from unnest($1::uuid[], $2::int[], $3::text[], $4::int[], $5::int[])
         as o(id, attempts, provider_id, response_status, latency_ms)
       where j.id = o.id and j.status = 'sending' and j.attempts = o.attempts
       returning j.id`,
      [
        jobs.map((j) => j.id),
        jobs.map((j) => j.attempts),
        jobs.map((j) => j.providerId?.slice(0, 255) ?? null),
        jobs.map((j) => j.responseStatus),
        jobs.map((j) => j.latencyMs),
      ],
    );
    return new Set(rows.map((r) => r.id));
  },

  /**
   * The attempt failed: queued again after the backoff, or failed for good after the last attempt
   * or a permanent error. A provider's own "call again in N s" (retryAfterMs: Slack's 429) is
   * obeyed to the second and gives the attempt back: being rate-limited is not the message failing.
   */
  async markFailedAttempt(
    db: DbOrTx,
    job: Pick<JobRow, 'id' | 'attempts' | 'maxAttempts'>,
    failure: {
      error: string;
      permanent: boolean;
      responseStatus: number | null;
      latencyMs: number | null;
      retryAfterMs?: number;
    },
  ): Promise<'queued' | 'failed' | 'lost'> {
    const waited = !failure.permanent && failure.retryAfterMs !== undefined;
    const final = !waited && (failure.permanent || job.attempts >= job.maxAttempts);
    const rows = await db
      .update(notificationJobs)
      .set({
        status: final ? 'failed' : 'queued',
        ...(waited ? { attempts: Math.max(0, job.attempts - 1) } : {}),
        nextAttemptAt: final
          ? undefined
          : new Date(Date.now() + (waited ? failure.retryAfterMs! : backoffMs(job.attempts))),
        lockedUntil: null,
        lastError: failure.error.slice(0, 2000),
        responseStatus: failure.responseStatus,
        latencyMs: failure.latencyMs,
        updatedAt: new Date(),
      })
      .where(ownedAttempt(job))
      .returning({ id: notificationJobs.id });
    if (rows.length === 0) return 'lost';
    return final ? 'failed' : 'queued';
  },

  /**
   * The claimed message will not be sent, for a reason that no retry changes (the invitation was
   * revoked, the address is proven already): finished, with the reason, like fan-out's skips.
   */
  async markSkipped(db: DbOrTx, job: Pick<JobRow, 'id' | 'attempts'>, reason: string): Promise<boolean> {
    const rows = await db
      .update(notificationJobs)
      .set({ status: 'skipped', skipReason: reason, lockedUntil: null, updatedAt: new Date() })
      .where(ownedAttempt(job))
      .returning({ id: notificationJobs.id });
    return rows.length > 0;
  },

  /** An item's messages (not its event rows), newest first. */
  async messagesOfItem(db: DbOrTx, organizationId: string, mailItemId: string): Promise<JobRow[]> {
    return db
      .select()
      .from(notificationJobs)
      .where(
        and(
          eq(notificationJobs.organizationId, organizationId),
          eq(notificationJobs.mailItemId, mailItemId),
          ne(notificationJobs.channel, 'event'),
        ),
      )
      .orderBy(desc(notificationJobs.createdAt), desc(notificationJobs.id));
  },

  async hasAnyForItem(db: DbOrTx, organizationId: string, mailItemId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: notificationJobs.id })
      .from(notificationJobs)
      .where(and(eq(notificationJobs.organizationId, organizationId), eq(notificationJobs.mailItemId, mailItemId)))
      .limit(1);
    return !!row;
  },
};

function ownedAttempt(job: Pick<JobRow, 'id' | 'attempts'>) {
  return and(
    eq(notificationJobs.id, job.id),
    eq(notificationJobs.status, 'sending'),
    eq(notificationJobs.attempts, job.attempts),
  );
}

export function toNotificationMessage(job: JobRow): NotificationMessage {
  return {
    id: job.id,
    channel: job.channel as MessageChannel,
    event: job.event,
    mailItemId: job.mailItemId,
    integrationId: job.integrationId,
    destination: job.destination,
    status: job.status as NotificationMessage['status'],
    attempts: job.attempts,
    lastError: job.lastError,
    skipReason: job.skipReason,
    responseStatus: job.responseStatus,
    latencyMs: job.latencyMs,
    createdAt: iso(job.createdAt),
    sentAt: isoOrNull(job.sentAt),
    nextAttemptAt: job.status === 'queued' ? iso(job.nextAttemptAt) : null,
  };
}
