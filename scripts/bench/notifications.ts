/**
 * Notifications benchmark (issue 6): 10,000 queued email notifications drained by the server's
 * own notification worker (started by server.ts, as in production) against a local in-process
 * SMTP server. Reports messages per second and proves that none was lost and none sent twice:
 * every job row is 'sent', and the SMTP server received exactly one message per row, counted by
 * Message-ID (`<jobId@pigeonhole>`).
 *
 *   npx tsx scripts/bench/notifications.ts [count]
 *
 * Loopback only, in a fresh temporary data folder (or, with DATABASE_URL, a fresh
 * `bench_<timestamp>` database) that is removed at the end, whatever happens.
 */
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
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
const TIMEOUT_MS = 300_000;

/** An SMTP server that keeps only each message's Message-ID (and how often it came). */
async function startCountingSmtp() {
  const seen = new Map<string, number>();
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Many messages per pooled connection.
    maxClients: 100,
    onData(stream, _session, callback) {
      let head = '';
      let done = false;
      stream.on('data', (c: Buffer) => {
        if (done) return;
        head += c.toString('utf8');
        if (head.includes('\r\n\r\n')) done = true;
      });
      stream.on('end', () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1] ?? '(none)';
        seen.set(id, (seen.get(id) ?? 0) + 1);
        received += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    seen,
    received: () => received,
  };
}

async function main(): Promise<number> {
  const smtp = await startCountingSmtp();
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
  log(`queueing ${COUNT} email notifications in one statement ...`);
  const started = performance.now();
  await pool.query(
    `insert into notification_jobs (organization_id, channel, event, destination, payload, dedupe_key)
     select $1, 'email', 'mail_item.created', 'r' || g || '@bench.test',
            jsonb_build_object('kind', 'bench', 'subject', 'Package ' || g, 'text', $2::text, 'html', $3::text),
            'bench:' || g
     from generate_series(1, $4::int) g`,
    [account.organizationId, text, html, COUNT],
  );
  const queuedMs = performance.now() - started;

  let last = -1;
  let counts = await count();
  const deadline = Date.now() + TIMEOUT_MS - 30_000;
  while ((counts.sent ?? 0) + (counts.failed ?? 0) < COUNT) {
    if (Date.now() > deadline) throw new Error(`not drained in time: ${JSON.stringify(counts)}`);
    await new Promise((r) => setTimeout(r, 250));
    counts = await count();
    const done = (counts.sent ?? 0) + (counts.failed ?? 0);
    if (done - last >= COUNT / 10) {
      log(`${done} / ${COUNT} done`);
      last = done;
    }
  }
  const drainedMs = performance.now() - started;
  // Let the last SMTP transactions land at the receiver (the row is marked after the server's 250).
  await new Promise((r) => setTimeout(r, 200));

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
      ['rows sent', String(counts.sent ?? 0)],
      ['rows failed', String(counts.failed ?? 0)],
      ['rows retried (attempts > 1)', String(attempts.retried)],
      ['received by SMTP', String(smtp.received())],
      ['distinct Message-IDs received', String(smtp.seen.size)],
      ['rows never received (lost)', String(missing)],
      ['Message-IDs received twice or more', String(duplicates)],
      ['received without a job Message-ID', String(unknown)],
    ],
  );
  const ok =
    (counts.sent ?? 0) === COUNT && missing === 0 && duplicates === 0 && unknown === 0 && smtp.received() === COUNT;
  console.log(`\n  ${ok ? 'PASS' : 'FAIL'}: ${ok ? 'none lost, none sent twice' : 'see the table'}`);
  return ok ? 0 : 1;
}

runBenchmark(main, TIMEOUT_MS);
