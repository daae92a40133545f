import type { HealthReply, ReadinessCheckName, ReadyReply } from '../../../contract';
import type { Db } from '../../db/client';
import type { ChangeFeed } from '../../lib/change-feed';
import type { NotificationWorker } from '../notifications/worker';
import { operationsRepository, type QueueStats } from './operations.repository';

/** How long a readiness check may ask the database before it counts as failing. */
const READINESS_TIMEOUT_MS = 2_000;

/** A running worker whose loop has not completed a pass for this long is stuck. */
const WORKER_STALLED_MS = 60_000;

export type OperationsProbes = {
  db: Db;
  changeFeed: Pick<ChangeFeed, 'listening'>;
  /** Whether this instance is configured to run the notification worker (NOTIFICATIONS_WORKER). */
  runsNotificationWorker: boolean;
  /** The workers running in this process now. */
  notificationWorkers: () => readonly Pick<NotificationWorker, 'running' | 'lastPassAt'>[];
  timeoutMs?: number;
};

/** `work`, or a rejection after `ms` (the statement may still finish later; its answer is dropped). */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * A check as the instance sees it: its state, and what was seen (a driver's error text, the
 * queue's counts, how long it took) for the server's log. The public reply keeps the state alone.
 */
export type ReadinessCheck = { state: 'ok' | 'failing' | 'off'; detail?: string; ms?: number };
export type Readiness = {
  status: ReadyReply['status'];
  checks: Record<ReadinessCheckName, ReadinessCheck>;
  failed: ReadinessCheckName[];
};

/** What /api/ready answers anyone: each check's state and the failing ones' names, no detail. */
export function publicReadiness(readiness: Readiness): ReadyReply {
  const state = (name: ReadinessCheckName) => ({ state: readiness.checks[name].state });
  return {
    status: readiness.status,
    checks: {
      database: state('database'),
      queue: state('queue'),
      notificationWorker: state('notificationWorker'),
      changeFeed: state('changeFeed'),
    },
    failed: readiness.failed,
  };
}

const failing = (err: unknown): ReadinessCheck => ({
  state: 'failing',
  detail: err instanceof Error ? err.message : String(err),
});

/**
 * Liveness and readiness for load balancers, orchestrators and monitors. No caller and no
 * organization: these answer for the instance, and say nothing about any tenant's data.
 */
export function createOperationsService(probes: OperationsProbes) {
  const timeoutMs = probes.timeoutMs ?? READINESS_TIMEOUT_MS;

  async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const started = performance.now();
    const value = await within(timeoutMs, work());
    return { value, ms: Math.round(performance.now() - started) };
  }

  async function database(): Promise<ReadinessCheck> {
    try {
      const { ms } = await timed(() => operationsRepository.ping(probes.db));
      return { state: 'ok', ms };
    } catch (err) {
      return failing(err);
    }
  }

  /** The queue is readable (a backlog is not a reason to take an instance out of rotation: the metrics show it). */
  async function queue(): Promise<ReadinessCheck> {
    try {
      const { value, ms } = await timed<QueueStats>(() => operationsRepository.queueStats(probes.db));
      return {
        state: 'ok',
        ms,
        detail: `${value.due} due, ${value.sending} sending, ${value.scheduled} scheduled; oldest due waiting ${Math.round(value.oldestDueSeconds)} s`,
      };
    } catch (err) {
      return failing(err);
    }
  }

  function notificationWorker(): ReadinessCheck {
    const workers = probes.notificationWorkers().filter((w) => w.running);
    if (workers.length === 0) {
      return probes.runsNotificationWorker
        ? { state: 'failing', detail: 'NOTIFICATIONS_WORKER is on but no worker is running' }
        : { state: 'off' };
    }
    const quietMs = Date.now() - Math.max(...workers.map((w) => w.lastPassAt));
    return quietMs > WORKER_STALLED_MS
      ? { state: 'failing', detail: `no pass completed for ${Math.round(quietMs / 1000)} s` }
      : { state: 'ok' };
  }

  function changeFeed(): ReadinessCheck {
    // Without it this instance misses the live desk's events the others send (decision 018).
    return probes.changeFeed.listening ? { state: 'ok' } : { state: 'failing', detail: 'not listening' };
  }

  return {
    /** Liveness: answered by the process alone, so a database outage never gets instances restarted. */
    health(): HealthReply {
      return { status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
    },

    /** Every check with what was seen: for the log (the route answers `publicReadiness` of it). */
    async ready(): Promise<Readiness> {
      const [db, q] = await Promise.all([database(), queue()]);
      const checks = { database: db, queue: q, notificationWorker: notificationWorker(), changeFeed: changeFeed() };
      const failed = (Object.keys(checks) as ReadinessCheckName[]).filter((k) => checks[k].state === 'failing');
      return { status: failed.length === 0 ? 'ready' : 'unavailable', checks, failed };
    },
  };
}

export type OperationsService = ReturnType<typeof createOperationsService>;
