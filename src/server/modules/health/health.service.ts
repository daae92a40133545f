import type { HealthReply } from '../../../contract';
import type { Deps } from '../../context';
import { healthRepository } from './health.repository';

/** Liveness for load balancers and monitors: no caller, no organization, nothing cached. */
export function createHealthService({ db }: Pick<Deps, 'db'>) {
  return {
    /** `unavailable` while the database cannot be reached (the route answers 503 then). */
    async check(): Promise<HealthReply> {
      const uptimeSeconds = Math.round(process.uptime());
      try {
        await healthRepository.ping(db);
        return { status: 'ok', database: 'ok', uptimeSeconds };
      } catch {
        return { status: 'unavailable', database: 'unreachable', uptimeSeconds };
      }
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
