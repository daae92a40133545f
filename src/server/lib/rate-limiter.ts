import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/** `count`: the hits in the current window, this one included. */
export type RateResult = { allowed: boolean; retryAfterSeconds: number; count: number };

/**
 * Fixed-window counters kept in PostgreSQL, so a limit holds across every app instance.
 * One statement per check: it opens a new window when the old one has passed.
 */
export async function hit(db: DbOrTx, key: string, limit: number, windowSeconds: number): Promise<RateResult> {
  const result = await db.execute<{ count: number; window_start: Date }>(sql`
    insert into rate_limits (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when rate_limits.window_start < now() - make_interval(secs => ${windowSeconds})
                   then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - make_interval(secs => ${windowSeconds})
                   then now() else rate_limits.window_start end
    returning count, window_start`);
  const row = result.rows[0]!;
  const elapsed = (Date.now() - new Date(row.window_start).getTime()) / 1000;
  return {
    allowed: row.count <= limit,
    retryAfterSeconds: Math.max(1, Math.ceil(windowSeconds - elapsed)),
    count: row.count,
  };
}

export async function reset(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

/** Takes back one hit of the current window (an attempt that was refused before it counted). */
export async function undo(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`update rate_limits set count = greatest(count - 1, 0) where key = ${key}`);
}
