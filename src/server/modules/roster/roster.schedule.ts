import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { RosterService } from './roster.service';

/**
 * The roster's clock (decision 061): croner ticks every minute on every instance, like the
 * notification worker runs on each; the tick's row claim makes each due source run once across
 * them. `protect` skips a tick while the previous one is still running on this instance.
 */
export function startRosterSchedule(roster: RosterService, log: FastifyBaseLogger, pattern = '* * * * *') {
  const job = new Cron(pattern, { protect: true, timezone: 'UTC' }, async () => {
    try {
      await roster.tick();
    } catch (err) {
      log.error({ err }, 'roster schedule tick failed');
    }
  });
  return () => job.stop();
}
