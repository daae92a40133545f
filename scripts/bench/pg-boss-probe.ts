/**
 * pg-boss 12 doing the notification worker's job, measured like scripts/bench/notifications.ts
 * (decision 019): COUNT email jobs queued in one call, drained by pg-boss workers that send each
 * through a pooled nodemailer transport (10 connections, as the worker's platform transport) to
 * the same counting SMTP server, then single jobs queued one at a time on the idle queue.
 * Reports messages per second, WAL written per message, queued → received latency, and proves
 * none was lost or sent twice (Message-ID `<jobId@pigeonhole>`).
 *
 *   npm run bench:pg-boss -- [count] [mode]
 *
 * mode: `batch` (default: one worker fetching 20 jobs at a time and fetching again at once while
 * batches come back full, the closest to our worker's 20 sends in flight), `workers` (20 workers
 * of one job each), or `notify` (batch, plus the queue's LISTEN/NOTIFY wake-up). The queue is
 * configured like ours: 13 attempts (12 retries) from 30 s doubling up to 8 h, a 2-minute lease.
 *
 * A probe, not part of the product: pg-boss is a dev dependency for it only. Its database is a
 * fresh embedded PostgreSQL (or a `bench_<timestamp>` database on DATABASE_URL), removed at the end.
 */
import nodemailer from 'nodemailer';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { latencyCells, startCountingSmtp, waitForArrivals, waitUntilDrained } from './counting-smtp';
import { log, makeDataDir, onCleanup, printTable, provisionDatabase, runBenchmark } from './harness';

const COUNT = Number(process.argv[2] ?? 10_000);
const MODE = (process.argv[3] ?? 'batch') as 'batch' | 'workers' | 'notify';
const LATENCY_SAMPLES = 100;
const TIMEOUT_MS = 300_000;
const QUEUE = 'email';

const WORK = {
  batch: { batchSize: 20, localConcurrency: 1, burstWhenBatchFull: true, pollingIntervalSeconds: 0.5 },
  notify: { batchSize: 20, localConcurrency: 1, burstWhenBatchFull: true, pollingIntervalSeconds: 0.5 },
  workers: { batchSize: 1, localConcurrency: 20, burstWhenReadyExceeds: 1, pollingIntervalSeconds: 0.5 },
}[MODE];

type EmailJob = { to: string; subject: string; text: string; html: string };

async function main(): Promise<number> {
  if (!WORK) throw new Error(`unknown mode ${MODE}: batch, workers or notify`);
  const smtp = await startCountingSmtp();
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  onCleanup(() => pool.end());

  const boss = new PgBoss({
    connectionString: database.url,
    schema: 'pgboss',
    max: 10,
    useListenNotify: MODE === 'notify',
  });
  boss.on('error', (err: unknown) => console.error('[bench] pg-boss error:', err));
  await boss.start();
  onCleanup(() => boss.stop({ graceful: true, timeout: 10_000 }));
  await boss.createQueue(QUEUE, {
    retryLimit: 12,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 8 * 3600,
    expireInSeconds: 120,
    ...(MODE === 'notify' ? { notify: true } : {}),
  });

  const transport = nodemailer.createTransport({ url: smtp.url, pool: true, maxConnections: 10, maxMessages: 1000 });
  onCleanup(async () => transport.close());
  await boss.work<EmailJob>(QUEUE, WORK, async (jobs) => {
    await Promise.all(
      jobs.map((job) =>
        transport.sendMail({
          from: 'Pigeonhole <noreply@bench.test>',
          to: job.data.to,
          subject: job.data.subject,
          text: job.data.text,
          html: job.data.html,
          messageId: `<${job.id}@pigeonhole>`,
        }),
      ),
    );
  });

  const completed = async () =>
    Number(
      (
        await pool.query<{ n: string }>(
          `select count(*) as n from pgboss.job where name = $1 and state = 'completed'`,
          [QUEUE],
        )
      ).rows[0]!.n,
    );
  const walLsn = async () =>
    (await pool.query<{ lsn: string }>(`select pg_current_wal_lsn()::text as lsn`)).rows[0]!.lsn;
  const walBytes = async (from: string) =>
    Number(
      (await pool.query<{ n: string }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::bigint as n`, [from]))
        .rows[0]!.n,
    );

  const html = `<p>${'Your package has arrived. '.repeat(20)}</p>`;
  const text = 'Your package has arrived. '.repeat(20);
  log(`pg-boss ${MODE}: queueing ${COUNT} email jobs in one insert ...`);
  const walStart = await walLsn();
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const jobs = Array.from({ length: COUNT }, (_, i) => ({
    data: { to: `r${i}@bench.test`, subject: `Package ${i}`, text, html },
  }));
  await boss.insert(QUEUE, jobs);
  const queuedMs = performance.now() - started;
  const walQueued = await walBytes(walStart);

  await waitUntilDrained(completed, COUNT, Date.now() + TIMEOUT_MS - 60_000);
  const drainedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  const walDrained = await walBytes(walStart);

  log(`queueing ${LATENCY_SAMPLES} single jobs one at a time on the idle queue ...`);
  const queuedAt = new Map<string, number>();
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 250));
    const t0 = performance.now();
    const id = await boss.send(QUEUE, { to: `single${i}@bench.test`, subject: 'Single', text, html });
    queuedAt.set(id!, t0);
  }
  await waitForArrivals(smtp, [...queuedAt.keys()], 30_000);
  await new Promise((r) => setTimeout(r, 200));
  const latency = latencyCells([...queuedAt].map(([id, t0]) => smtp.arrivedAt.get(`<${id}@pigeonhole>`)! - t0));

  const ids = (await pool.query<{ id: string }>(`select id from pgboss.job where name = $1`, [QUEUE])).rows;
  const missing = ids.filter((r) => !smtp.seen.has(`<${r.id}@pigeonhole>`)).length;
  const duplicates = [...smtp.seen.values()].filter((n) => n > 1).length;
  const retried = Number(
    (
      await pool.query<{ n: string }>(`select count(*) as n from pgboss.job where name = $1 and retry_count > 1`, [
        QUEUE,
      ])
    ).rows[0]!.n,
  );

  const rate = (COUNT / drainedMs) * 1000;
  console.log('');
  printTable(
    ['measure', 'value'],
    [
      ['pg-boss mode', `${MODE} ${JSON.stringify(WORK)}`],
      ['messages queued', String(COUNT)],
      ['queue insert (boss.insert)', `${queuedMs.toFixed(0)} ms`],
      ['drained in', `${(drainedMs / 1000).toFixed(2)} s`],
      ['messages / second', rate.toFixed(0)],
      ['Node CPU (this process, SMTP server included)', `${((cpu.user + cpu.system) / COUNT).toFixed(0)} µs / message`],
      ['WAL written: queueing', `${(walQueued / COUNT).toFixed(0)} B / message`],
      ['WAL written: queueing and sending', `${(walDrained / COUNT).toFixed(0)} B / message`],
      [`single message queued → received, p50 (${LATENCY_SAMPLES} on an idle queue)`, latency.p50],
      ['single message queued → received, p95', latency.p95],
      ['single message queued → received, max', latency.max],
      ['jobs retried (claimed more than once)', String(retried)],
      ['received by SMTP', String(smtp.received())],
      ['jobs never received (lost)', String(missing)],
      ['Message-IDs received twice or more', String(duplicates)],
    ],
  );
  const ok = missing === 0 && duplicates === 0 && smtp.received() === COUNT + LATENCY_SAMPLES;
  console.log(`\n  ${ok ? 'PASS' : 'FAIL'}: ${ok ? 'none lost, none sent twice' : 'see the table'}`);
  return ok ? 0 : 1;
}

runBenchmark(main, TIMEOUT_MS);
