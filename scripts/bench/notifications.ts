/**
 * Notifications benchmark (issue 6): 10,000 queued email notifications drained by the server's
 * own notification worker (started by server.ts, as in production) against a local in-process
 * SMTP server. Reports messages per second and proves that none was lost and none sent twice:
 * every job row is 'sent', and the SMTP server received exactly one message per row, counted by
 * Message-ID (`<jobId@pigeonhole>`). Also reports the WAL the queue writes per message, and the
 * latency of single messages queued one at a time on an idle queue (queued → received by SMTP),
 * the figures scripts/bench/pg-boss-probe.ts measures for pg-boss (decision 019).
 *
 *   npx tsx scripts/bench/notifications.ts [count]
 *
 * Loopback only, in a fresh temporary data folder (or, with DATABASE_URL, a fresh
 * `bench_<timestamp>` database) that is removed at the end, whatever happens.
 */
import pg from 'pg';
import { latencyCells, startCountingSmtp, waitForArrivals, waitUntilDrained } from './counting-smtp';
import {
  log,
  makeDataDir,
  onCleanup,
  printTable,
  provisionDatabase,
  runBenchmark,
  signUp,
  startBenchServer,
} from './harness';

const COUNT = Number(process.argv[2] ?? 10_000);
/** Single messages queued one at a time, 50–300 ms apart, after the backlog is drained. */
const LATENCY_SAMPLES = 100;
const TIMEOUT_MS = 300_000;

async function main(): Promise<number> {
  // The sign-up's own verification email is not one of the queue's messages.
  const smtp = await startCountingSmtp(['bench@bench.test']);
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  // The server's own worker (NOTIFICATIONS_WORKER defaults to true) sends through SMTP_URL.
  process.env.SMTP_URL = smtp.url;
  process.env.NOTIFICATIONS_WORKER = 'true';
  const server = await startBenchServer(dataDir, database);
  const account = await signUp(server.url);

  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  onCleanup(() => pool.end());
  const count = async () =>
    (
      await pool.query<{ status: string; n: number }>(
        `select status, count(*)::int as n from notification_jobs where channel = 'email' group by status`,
      )
    ).rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: r.n }), {});

  const html = `<p>${'Your package has arrived. '.repeat(20)}</p>`;
  const text = 'Your package has arrived. '.repeat(20);
  const walLsn = async () =>
    (await pool.query<{ lsn: string }>(`select pg_current_wal_lsn()::text as lsn`)).rows[0]!.lsn;
  const walBytes = async (from: string) =>
    Number(
      (await pool.query<{ n: string }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::bigint as n`, [from]))
        .rows[0]!.n,
    );
  log(`queueing ${COUNT} email notifications in one statement ...`);
  const walStart = await walLsn();
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  await pool.query(
    `insert into notification_jobs (organization_id, channel, event, destination, payload, dedupe_key)
     select $1, 'email', 'mail_item.created', 'r' || g || '@bench.test',
            jsonb_build_object('kind', 'bench', 'subject', 'Package ' || g, 'text', $2::text, 'html', $3::text),
            'bench:' || g
     from generate_series(1, $4::int) g`,
    [account.organizationId, text, html, COUNT],
  );
  const queuedMs = performance.now() - started;
  const walQueued = await walBytes(walStart);

  let counts = await count();
  await waitUntilDrained(
    async () => {
      counts = await count();
      return (counts.sent ?? 0) + (counts.failed ?? 0);
    },
    COUNT,
    Date.now() + TIMEOUT_MS - 30_000,
    () => JSON.stringify(counts),
  );
  const drainedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  const walDrained = await walBytes(walStart);

  log(`queueing ${LATENCY_SAMPLES} single messages one at a time on the idle queue ...`);
  const queuedAt = new Map<string, number>();
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 250));
    const t0 = performance.now();
    const { rows } = await pool.query<{ id: string }>(
      `insert into notification_jobs (organization_id, channel, event, destination, payload, dedupe_key)
       values ($1, 'email', 'mail_item.created', $2, jsonb_build_object('kind', 'bench', 'subject', 'Single', 'text', $3::text, 'html', $4::text), $5)
       returning id`,
      [account.organizationId, `single${i}@bench.test`, text, html, `bench:single:${i}`],
    );
    queuedAt.set(rows[0]!.id, t0);
  }
  await waitForArrivals(smtp, [...queuedAt.keys()], 30_000);
  // Let the last SMTP transactions land at the receiver (the row is marked after the server's 250).
  await new Promise((r) => setTimeout(r, 200));
  const latencies = [...queuedAt].map(([id, t0]) => smtp.arrivedAt.get(`<${id}@pigeonhole>`)! - t0);
  const latency = latencyCells(latencies);

  const ids = (await pool.query<{ id: string }>(`select id from notification_jobs where channel = 'email'`)).rows;
  const missing = ids.filter((r) => !smtp.seen.has(`<${r.id}@pigeonhole>`)).length;
  const duplicates = [...smtp.seen.values()].filter((n) => n > 1).length;
  const unknown = [...smtp.seen.keys()].filter((k) => !/^<[0-9a-f-]{36}@pigeonhole>$/.test(k)).length;
  const attempts = (
    await pool.query<{ max: number; retried: number }>(
      `select max(attempts)::int as max, (count(*) filter (where attempts > 1))::int as retried from notification_jobs where channel = 'email'`,
    )
  ).rows[0]!;

  const rate = (COUNT / drainedMs) * 1000;
  console.log('');
  printTable(
    ['measure', 'value'],
    [
      ['messages queued', String(COUNT)],
      ['queue insert (one statement)', `${queuedMs.toFixed(0)} ms`],
      ['drained in', `${(drainedMs / 1000).toFixed(2)} s`],
      ['messages / second', rate.toFixed(0)],
      ['Node CPU (this process, SMTP server included)', `${((cpu.user + cpu.system) / COUNT).toFixed(0)} µs / message`],
      ['WAL written: queueing', `${(walQueued / COUNT).toFixed(0)} B / message`],
      ['WAL written: queueing and sending', `${(walDrained / COUNT).toFixed(0)} B / message`],
      [`single message queued → received, p50 (${LATENCY_SAMPLES} on an idle queue)`, latency.p50],
      ['single message queued → received, p95', latency.p95],
      ['single message queued → received, max', latency.max],
      ['backlog rows sent', String(counts.sent ?? 0)],
      ['backlog rows failed', String(counts.failed ?? 0)],
      ['rows retried (attempts > 1)', String(attempts.retried)],
      ['received by SMTP (backlog and single messages)', String(smtp.received())],
      ['distinct Message-IDs received', String(smtp.seen.size)],
      ['rows never received (lost)', String(missing)],
      ['Message-IDs received twice or more', String(duplicates)],
      ['received without a job Message-ID', String(unknown)],
    ],
  );
  const ok =
    (counts.sent ?? 0) === COUNT &&
    missing === 0 &&
    duplicates === 0 &&
    unknown === 0 &&
    smtp.received() === COUNT + LATENCY_SAMPLES;
  console.log(`\n  ${ok ? 'PASS' : 'FAIL'}: ${ok ? 'none lost, none sent twice' : 'see the table'}`);
  return ok ? 0 : 1;
}

runBenchmark(main, TIMEOUT_MS);
