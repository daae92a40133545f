import { lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { passwordResetTokens, rateLimits } from '../../db/schema';
import { sessionsRepository } from './sessions.repository';

const HOUR_MS = 3600_000;

/** Removes expired sessions, reset tokens past their day, and rate-limit windows long gone. */
export async function sweepExpired(db: Db): Promise<void> {
  await sessionsRepository.deleteExpired(db);
  await db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, new Date(Date.now() - 24 * HOUR_MS)));
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, sql`now() - interval '1 day'`));
}

/** Sweeps hourly (and once shortly after start); any instance may do it, it is idempotent. */
export function startHousekeeping(db: Db, log: FastifyBaseLogger): () => void {
  const run = () => sweepExpired(db).catch((err: unknown) => log.warn({ err }, 'housekeeping failed'));
  const first = setTimeout(run, 30_000);
  const every = setInterval(run, HOUR_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
