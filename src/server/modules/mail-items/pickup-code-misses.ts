import { TOO_MANY_PICKUP_CODE_MISSES } from '../../../contract';
import type { OrgCaller } from '../../context';
import type { DbOrTx } from '../../db/client';
import { tooManyRequests } from '../../lib/errors';
import * as rateLimiter from '../../lib/rate-limiter';

/*
 * Kept with the hand-over, below pickups: the hand-over by pickup code counts its misses here, and
 * pickups' lookup (a tier above mail items) counts through the same function.
 */

/**
 * Pickup codes tried that matched nobody (decision 050), per person and per organization in a
 * minute: a desk's typo now and then passes, a guesser (450 a second before) gets 10 a minute.
 * A code that finds its holder is not counted, so a busy desk is never slowed.
 */
export const PICKUP_CODE_MISSES_PER_PERSON = 10;
export const PICKUP_CODE_MISSES_PER_ORGANIZATION = 30;
const MISS_WINDOW_SECONDS = 60;

/**
 * Counts a code about to be tried against the caller's and the organization's misses (429 with
 * Retry-After once either is spent); `found()` takes the count back when the code was right. Used
 * by the lookup and by a hand-over that names a code, so neither is a way around the other.
 */
export async function tryPickupCode(db: DbOrTx, caller: Pick<OrgCaller, 'organizationId' | 'userId'>) {
  const keys = [
    `pickup-code:person:${caller.organizationId}:${caller.userId}`,
    `pickup-code:org:${caller.organizationId}`,
  ];
  const [person, organization] = await Promise.all([
    rateLimiter.hit(db, keys[0]!, PICKUP_CODE_MISSES_PER_PERSON, MISS_WINDOW_SECONDS),
    rateLimiter.hit(db, keys[1]!, PICKUP_CODE_MISSES_PER_ORGANIZATION, MISS_WINDOW_SECONDS),
  ]);
  const refused = [person, organization].filter((r) => !r.allowed);
  if (refused.length > 0) {
    throw tooManyRequests(TOO_MANY_PICKUP_CODE_MISSES, Math.max(...refused.map((r) => r.retryAfterSeconds)));
  }
  return { found: async () => void (await Promise.all(keys.map((key) => rateLimiter.undo(db, key)))) };
}
