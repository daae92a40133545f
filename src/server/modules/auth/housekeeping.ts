import { lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { passwordResetTokens, rateLimits } from '../../db/schema';
import { sessionsRepository } from './sessions.repository';
import { twoFactorRepository } from './two-factor.repository';

const HOUR_MS = 3600_000;

/** Removes expired sessions, reset tokens and sign-in challenges past their day, and rate-limit windows long gone. */
export async function sweepExpired(db: Db): Promise<void> {
  await sessionsRepository.deleteExpired(db);
  await db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, new Date(Date.now() - 24 * HOUR_MS)));
  await twoFactorRepository.deleteExpiredChallenges(db);
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, sql`now() - interval '1 day'`));
}

/**
 * Sweeps hourly (and once shortly after start): expired sessions and tokens, then any further
 * sweeps given (notification retention). Any instance may do it; every sweep is idempotent.
 */
export function startHousekeeping(
  db: Db,
  log: FastifyBaseLogger,
  sweeps: ReadonlyArray<() => Promise<unknown>> = [],
): () => void {
  const run = async () => {
    for (const sweep of [() => sweepExpired(db), ...sweeps]) {
      await sweep().catch((err: unknown) => log.warn({ err }, 'housekeeping failed'));
    }
  };
  const first = setTimeout(() => void run(), 30_000);
  const every = setInterval(() => void run(), HOUR_MS);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
