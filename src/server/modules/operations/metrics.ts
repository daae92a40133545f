import crypto from 'node:crypto';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Caches } from '../../caches';
import type { Db } from '../../db/client';
import type { ChangeFeed } from '../../lib/change-feed';
import { operationsRepository, type QueueStats } from './operations.repository';

export type MetricsSources = {
  db: Db;
  caches: Caches;
  changeFeed: Pick<ChangeFeed, 'listening' | 'stats' | 'observeLag'>;
};

/** The route label of a request no route matched: one series, whatever the URL (no cardinality blow-up). */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * Prometheus metrics of one app instance, in a registry of its own (tests build several apps in
 * one process; prom-client's global registry would mix them). Only requests are counted as they
 * happen (`observeRequest`, from one onResponse hook); everything else is read at scrape time.
 */
export function createMetrics({ db, caches, changeFeed }: MetricsSources) {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'pigeonhole_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  // By route, not status: the status split is in the counter, and a histogram's series multiply.
  const latency = new Histogram({
    name: 'pigeonhole_http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its reply, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers,
  });

  let queueStats: Promise<QueueStats | undefined> | undefined;
  /**
   * One statement per scrape: the queue gauges collect at once and share the statement in flight
   * (as do two scrapers asking together); undefined when the database cannot answer.
   */
  const readQueue = () =>
    (queueStats ??= operationsRepository
      .queueStats(db)
      .catch(() => undefined)
      .finally(() => (queueStats = undefined)));
  const queueGauge = (name: string, help: string, pick: (s: QueueStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const stats = await readQueue();
        // NaN (no sample value) rather than a stale or invented figure while the database is away.
        this.set(stats ? pick(stats) : NaN);
      },
    });
  queueGauge('pigeonhole_job_queue_due', 'Notification jobs due now and not yet claimed', (s) => s.due);
  queueGauge('pigeonhole_job_queue_scheduled', 'Notification jobs waiting for a later attempt', (s) => s.scheduled);
  queueGauge('pigeonhole_job_queue_sending', 'Notification jobs held by a worker now', (s) => s.sending);
  queueGauge(
    'pigeonhole_job_queue_oldest_due_seconds',
    'How long the oldest due notification job has waited past its time (0: none due)',
    (s) => s.oldestDueSeconds,
  );

  const pool: pg.Pool = db.$client;
  new Gauge({
    name: 'pigeonhole_db_pool_connections',
    help: "This instance's database pool: connections open (total), idle, and checkouts waiting for one",
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });

  // The caches keep their own counts (VersionedCache.hits/misses); a scrape copies them.
  const cacheCounter = (name: string, help: string, pick: (c: Caches[keyof Caches]) => number) =>
    new Counter({
      name,
      help,
      labelNames: ['cache'] as const,
      registers,
      collect() {
        this.reset();
        for (const [cache, c] of Object.entries(caches) as [keyof Caches, Caches[keyof Caches]][]) {
          this.inc({ cache }, pick(c));
        }
      },
    });
  cacheCounter('pigeonhole_cache_hits_total', 'Reads answered from an in-process cache, by cache', (c) => c.hits);
  cacheCounter(
    'pigeonhole_cache_misses_total',
    'Reads of an in-process cache that had to load, by cache',
    (c) => c.misses,
  );

  new Counter({
    name: 'pigeonhole_change_feed_messages_received_total',
    help: 'Change feed messages received from other instances',
    registers,
    collect() {
      this.reset();
      this.inc(changeFeed.stats.received);
    },
  });
  new Counter({
    name: 'pigeonhole_change_feed_reconnects_total',
    help: 'Times the change feed started listening again after losing its connection',
    registers,
    collect() {
      this.reset();
      this.inc(changeFeed.stats.reconnects);
    },
  });
  new Gauge({
    name: 'pigeonhole_change_feed_connected',
    help: 'Whether this instance is listening to the change feed (1) or not (0)',
    registers,
    collect() {
      this.set(changeFeed.listening ? 1 : 0);
    },
  });
  const lag = new Histogram({
    name: 'pigeonhole_change_feed_lag_seconds',
    help: "From a message's sending (the sender's clock) to its receipt here (this instance's clock)",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers,
  });
  changeFeed.observeLag((lagMs) => lag.observe(lagMs / 1000));

  return {
    registry,
    /** One call per answered request (the onResponse hook): a counter and a histogram, no I/O. */
    observeRequest(method: string, route: string | undefined, status: number, seconds: number) {
      const r = route ?? UNMATCHED_ROUTE;
      requests.inc({ method, route: r, status: String(status) });
      latency.observe({ method, route: r }, seconds);
    },
    /** The Prometheus text exposition and its content type. */
    async render(): Promise<{ contentType: string; text: string }> {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Whether `authorization` is `Bearer <token>`, compared in constant time (hashes of equal length). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return false;
  const digest = (s: string) => crypto.createHash('sha256').update(s).digest();
  return crypto.timingSafeEqual(digest(m[1]!), digest(token));
}
