import type { Db } from '../../db/client';

/** Statuses a job never leaves: its message went out, failed for good, was skipped, or fanned out. */
const FINISHED = ['sent', 'failed', 'skipped', 'done'];
const BATCH = 5000;

/**
 * Deletes finished notification jobs created more than `days` ago (0 keeps them forever), in
 * batches so no statement holds many row locks or runs long. Queued and in-flight jobs are never
 * touched, whatever their age. Answers how many rows went.
 */
export async function deleteOldNotificationJobs(db: Db, days: number, now = new Date()): Promise<number> {
  if (days <= 0) return 0;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  let deleted = 0;
  for (;;) {
    const { rowCount } = await db.$client.query(
      `delete from notification_jobs where id in (
         select id from notification_jobs where created_at < $1 and status = any($2::text[]) limit $3
       )`,
      [cutoff, FINISHED, BATCH],
    );
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < BATCH) return deleted;
  }
}
