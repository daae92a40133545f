import net from 'node:net';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../db/client';
import { registerErrorHandlers } from '../../plugins/errors';
import { Client, createSecondInstance, createTestApp, signUpWithOrganization, type TestApp } from '../../test/harness';
import { operationsRoutes } from './operations.routes';
import { createOperationsService, type OperationsProbes } from './operations.service';

const TOKEN = 'metrics-token-for-the-tests-0123456789';

let t: TestApp;
/** Another instance on the same database, with /metrics exposed. */
let m: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  m = await createSecondInstance(t, { METRICS_TOKEN: TOKEN });
});

/** A port nobody listens on: taken, then released. */
function freePort() {
  return new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = (probe.address() as net.AddressInfo)!;
      probe.close(() => resolve(port));
    });
  });
}

/** The operations routes alone, on probes of the test's choosing (a database that is down); its log lines go to `logged`. */
async function appOn(probes: OperationsProbes, logged: string[] = []) {
  const stream = { write: (line: string) => void logged.push(line) };
  const app = Fastify({ logger: { level: 'warn', stream } }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandlers(app);
  operationsRoutes(app, createOperationsService(probes), undefined);
  await app.ready();
  return app;
}

const scrape = (target: TestApp, token = TOKEN) =>
  target.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });

/** The value of one series in a Prometheus text exposition (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('liveness and readiness', () => {
  it('GET /api/health answers 200 from the process alone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', uptimeSeconds: expect.any(Number) });
    expect(res.headers['x-request-id']).toMatch(/[\w-]+/);
  });

  it('echoes a well-formed incoming request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('GET /api/ready answers 200 with each check while everything is up', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'ready',
      failed: [],
      checks: {
        database: { state: 'ok' },
        queue: { state: 'ok' },
        // The tests' apps run no worker (NOTIFICATIONS_WORKER=false).
        notificationWorker: { state: 'off' },
        changeFeed: { state: 'ok' },
      },
    });
    // The state alone: no timings, no queue counts (decision 052).
    expect(Object.values(body.checks).every((c) => Object.keys(c as object).join() === 'state')).toBe(true);
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('checks a notification worker while one runs in the process', async () => {
    const worker = t.app.notifications.createWorker({ pollMs: 20, reminderEveryMs: 0 });
    worker.start();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.json().checks.notificationWorker).toEqual({ state: 'ok' });
    } finally {
      await worker.stop();
    }
    const after = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(after.json().checks.notificationWorker).toEqual({ state: 'off' });
  });

  it('answers 503 with Retry-After and the failing checks while the database is away, the why only in the log; liveness stays 200', async () => {
    // The probe's outage: the driver's error names the host and port it could not reach.
    const port = await freePort();
    const down = connectDatabase(`postgres://nobody@127.0.0.1:${port}/none`, 1);
    const logged: string[] = [];
    const app = await appOn(
      {
        db: down.db,
        changeFeed: { listening: false },
        runsNotificationWorker: true,
        notificationWorkers: () => [],
      },
      logged,
    );
    try {
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.json()).toEqual({
        status: 'unavailable',
        failed: ['database', 'queue', 'notificationWorker', 'changeFeed'],
        checks: {
          database: { state: 'failing' },
          queue: { state: 'failing' },
          notificationWorker: { state: 'failing' },
          changeFeed: { state: 'failing' },
        },
      });
      // Nothing of the driver's text, the address or the port reaches the caller.
      expect(ready.body).not.toMatch(/ECONNREFUSED|connect|127\.0\.0\.1|nobody/);
      expect(ready.body).not.toContain(String(port));
      // The operator finds it in the log.
      const line = logged.map((l) => JSON.parse(l)).find((l) => l.msg === 'not ready');
      expect(line.checks).toMatchObject({
        database: { state: 'failing', detail: expect.stringMatching(/ECONNREFUSED|connect/) },
        notificationWorker: { state: 'failing', detail: 'NOTIFICATIONS_WORKER is on but no worker is running' },
        changeFeed: { state: 'failing', detail: 'not listening' },
      });
      const live = await app.inject({ method: 'GET', url: '/api/health' });
      expect(live.statusCode).toBe(200);
    } finally {
      await app.close();
      await down.close();
    }
  });

  it('fails a check that does not answer within its timeout, and names a stalled worker', async () => {
    // A server that accepts connections and never says a word: the database hangs rather than refuses.
    const silent = net.createServer(() => undefined).listen(0, '127.0.0.1');
    await new Promise((r) => silent.once('listening', r));
    const { port } = silent.address() as net.AddressInfo;
    const hung = connectDatabase(`postgres://nobody@127.0.0.1:${port}/none`, 1);
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const lastPassAt = Date.now() - 120_000;
    const service = createOperationsService({
      db: hung.db,
      changeFeed: { listening: true },
      runsNotificationWorker: true,
      notificationWorkers: () => [{ running: true, lastPassAt }],
      timeoutMs: 200,
    });
    operationsRoutes(app, service, undefined);
    try {
      const started = Date.now();
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        failed: ['database', 'queue', 'notificationWorker'],
        checks: {
          database: { state: 'failing' },
          notificationWorker: { state: 'failing' },
          changeFeed: { state: 'ok' },
        },
      });
      // What was seen, as the log gets it.
      expect((await service.ready()).checks).toMatchObject({
        database: { state: 'failing', detail: 'no answer within 200 ms' },
        notificationWorker: { state: 'failing', detail: expect.stringMatching(/^no pass completed for 12\d s$/) },
      });
    } finally {
      await app.close();
      silent.close();
      void hung.close();
    }
  });
});

describe('GET /metrics', () => {
  it('answers 404 when METRICS_TOKEN is not set', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Route GET /metrics not found', code: 'not_found' });
  });

  it('answers 401 without the token or with another one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-of-some-length', TOKEN, `Basic ${TOKEN}`]) {
      const res = await m.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthenticated' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }
  });

  it('counts requests by route pattern, not URL, with their latency', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    await m.app.inject({ method: 'GET', url: '/api/health' });
    await m.app.inject({ method: 'GET', url: `/api/photos/${id}` });
    await m.app.inject({ method: 'GET', url: '/api/no-such-thing/123' });
    const res = await scrape(m);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(sample(text, 'pigeonhole_http_requests_total{method="GET",route="/api/health",status="200"}')).toBe(1);
    expect(sample(text, 'pigeonhole_http_requests_total{method="GET",route="/api/photos/:id",status="401"}')).toBe(1);
    expect(sample(text, 'pigeonhole_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(text).not.toContain(id);
    expect(text).not.toContain('no-such-thing');
    expect(sample(text, 'pigeonhole_http_request_duration_seconds_count{method="GET",route="/api/health"}')).toBe(1);
    // Process metrics come with it.
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('keeps one registry per instance (several apps in one process count apart)', async () => {
    const other = await createSecondInstance(t, { METRICS_TOKEN: TOKEN });
    for (let i = 0; i < 3; i += 1) await other.app.inject({ method: 'GET', url: '/api/ready' });
    const series = 'pigeonhole_http_requests_total{method="GET",route="/api/ready",status="200"}';
    expect(sample((await scrape(other)).body, series)).toBe(3);
    expect(sample((await scrape(m)).body, series)).toBeUndefined();
  });

  it('reads the queue depth and the oldest due job from the database at scrape time', async () => {
    const { org } = await signUpWithOrganization(t);
    await t.asOwner(
      `insert into notification_jobs (organization_id, channel, event, status, next_attempt_at)
       values ('${org.id}', 'email', 'test', 'queued', now() - interval '90 seconds'),
              ('${org.id}', 'email', 'test', 'queued', now() + interval '1 hour')`,
    );
    const text = (await scrape(m)).body;
    expect(sample(text, 'pigeonhole_job_queue_due')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'pigeonhole_job_queue_scheduled')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'pigeonhole_job_queue_oldest_due_seconds')).toBeGreaterThanOrEqual(90);
    await t.asOwner(`delete from notification_jobs where organization_id = '${org.id}'`);
  });

  it('shows the pool, the caches and the change feed', async () => {
    const { client } = await signUpWithOrganization(t);
    // The same organization's dashboard twice on the metrics instance: a miss, then a hit.
    const desk = new Client(m);
    desk.cookie = client.cookie;
    desk.organizationId = client.organizationId;
    expect((await desk.get('/api/dashboard/stats')).statusCode).toBe(200);
    expect((await desk.get('/api/dashboard/stats')).statusCode).toBe(200);
    // A message from the other instance, carrying its sent-at time.
    const before = m.app.changeFeed.stats.received;
    await t.app.changeFeed.publish('test.metrics', { hello: 1 });
    await expect.poll(() => m.app.changeFeed.stats.received, { timeout: 2_000 }).toBeGreaterThan(before);

    const text = (await scrape(m)).body;
    expect(sample(text, 'pigeonhole_cache_hits_total{cache="dashboardStats"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'pigeonhole_cache_misses_total{cache="dashboardStats"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'pigeonhole_cache_hits_total{cache="platformStats"}')).toBe(0);
    expect(sample(text, 'pigeonhole_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'pigeonhole_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
    // The scrape's own queue statement may be waiting for its connection at that moment.
    expect(sample(text, 'pigeonhole_db_pool_connections{state="waiting"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'pigeonhole_change_feed_connected')).toBe(1);
    expect(sample(text, 'pigeonhole_change_feed_messages_received_total')).toBeGreaterThanOrEqual(before + 1);
    expect(sample(text, 'pigeonhole_change_feed_reconnects_total')).toBe(0);
    expect(sample(text, 'pigeonhole_change_feed_lag_seconds_count')).toBeGreaterThanOrEqual(1);
  });
});

describe('the OpenAPI document', () => {
  it('lists the calls, the operations ones under their tag', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const p of [
      '/api/register',
      '/api/login',
      '/api/organizations',
      '/api/organizations/{id}/members/{userId}',
      '/api/dashboard/stats',
    ]) {
      expect(doc.paths).toHaveProperty([p]);
    }
    for (const p of ['/api/health', '/api/ready', '/metrics']) expect(doc.paths[p].get.tags).toEqual(['Operations']);
  });
});
