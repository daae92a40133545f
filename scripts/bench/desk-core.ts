/**
 * The desk's core without caches (issue 13, item 3): the reads each front-desk screen makes when
 * it opens, and the two writes, with CACHE_TTL_MS=0 on 100,000 mail items in ONE organization, at
 * 20 connections. The reads run twice: first on the tables as a bulk load or a restored backup
 * leaves them (no statistics, no visibility map, autovacuum off for the run), then after
 * VACUUM ANALYZE. Beside each figure: the CPU per request of the server (its main thread) and of
 * PostgreSQL (the load generator shares the same CPUs), and the budget.
 * Timing never fails the run; a non-2xx answer or a connection error does (exit 1).
 *
 *   npx tsx scripts/bench/desk-core.ts          (DATABASE_URL=… to run on another PostgreSQL)
 *
 * Loopback only, in a fresh temporary data folder or database that is removed at the end.
 */
import os from 'node:os';
import { seedFrontDesk, type FrontDeskLayout } from './front-desk-seed';
import {
  disableAutovacuum,
  measureCreate,
  measureStatusChange,
  pendingItemIds,
  withClient,
  type Kind,
  type Measured,
} from './front-desk-writes';
import {
  accountHeaders,
  log,
  makeDataDir,
  onCleanup,
  printTable,
  provisionDatabase,
  runBenchmark,
  signUp,
  startBenchServer,
} from './harness';
import { measureEndpoint, type LoadOptions, type LoadTarget } from './load';
import { createObserver, type Observation } from './observe';

const BUDGET = { readP99Ms: 30, readRps: 1000, writeP99Ms: 50 };
const LOAD: LoadOptions = { connections: 20, warmUpSeconds: 2, measureSeconds: 8 };
const TIMEOUT_MS = 420_000;

/** 100,000 items in the signed-in organization, and a few small neighbours so that isolation matters. */
const LAYOUT: FrontDeskLayout = {
  organizations: 5,
  totalItems: 102_000,
  main: { items: 100_000, recipients: 500, locations: 10 },
  other: { recipients: 50, locations: 3 },
};

/** What each screen asks for when it opens, as the client asks it. */
const READS = [
  { label: 'Mail Intake, first page', path: '/api/mail-items?order=desc&limit=25&offset=0&view=summary' },
  {
    label: 'Pending Pickups, first page',
    path: '/api/mail-items?status=pending%2Cnotified&order=asc&limit=50&offset=0&view=summary',
  },
  // The same page as full items (what an API client reads without view=summary), for comparison.
  {
    label: 'Pending Pickups, first page as full items',
    path: '/api/mail-items?status=pending%2Cnotified&order=asc&limit=50&offset=0',
  },
  { label: 'Pending Pickups, counters', path: '/api/mail-items/pending-summary' },
  { label: 'Dashboard, recent activity', path: '/api/dashboard/recent-activity?limit=5' },
  { label: 'Dashboard, stats', path: '/api/dashboard/stats' },
  { label: 'Dashboard, trends', path: '/api/dashboard/trends' },
  { label: 'Recipients, first page', path: '/api/recipients?limit=50&offset=0' },
] as const;

type Row = Measured & { phase: string };

async function main(): Promise<number> {
  const loadBefore = os.loadavg()[0]!;
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  process.env.NOTIFICATIONS_WORKER = process.env.NOTIFICATIONS_WORKER ?? 'false';
  // No statistics check after the start: the first phase measures the tables as a bulk load leaves them.
  const server = await startBenchServer(dataDir, database, { CACHE_TTL_MS: '0', STATISTICS_CHECK_SECONDS: '0' });
  const account = await signUp(server.url);
  await disableAutovacuum(database.url);
  const seedStarted = performance.now();
  const seed = await seedFrontDesk(database.url, account.organizationId, account.userId, {
    layout: LAYOUT,
    analyze: false,
  });
  log(`seeded ${seed.counts.items} mail items in ${(performance.now() - seedStarted).toFixed(0)} ms`);

  const observer = createObserver(database.url);
  onCleanup(observer.close);
  const measure = async (target: LoadTarget, kind: Kind): Promise<Measured> => {
    log(`load: ${target.name} ...`);
    let observed: Observation | undefined;
    const result = await measureEndpoint(
      server.url,
      target,
      { beforeMeasured: observer.start, afterMeasured: async () => void (observed = await observer.stop()) },
      LOAD,
    );
    return { kind, observed: observed!, ...result };
  };
  const headers = accountHeaders(account);
  const rows: Row[] = [];
  const readAll = async (phase: string) => {
    for (const read of READS) {
      rows.push({ phase, ...(await measure({ name: read.label, path: read.path, headers }, 'read')) });
    }
  };

  const statistics = await statisticsOf(database.url);
  await readAll(`no statistics (${statistics})`);
  log('VACUUM ANALYZE ...');
  await withClient(database.url, (c) => c.query('vacuum analyze'));
  await readAll('analysed');
  const pendingPool = await pendingItemIds(database.url, account.organizationId);
  rows.push({ phase: 'analysed', ...(await measureCreate(measure, dataDir, database.url, account, seed)) });
  rows.push({
    phase: 'analysed',
    ...(await measureStatusChange(measure, dataDir, database.url, account, pendingPool)),
  });

  console.log(
    `\nDesk core, caches off (CACHE_TTL_MS=0): ${LAYOUT.main.items} mail items in the signed-in organization ` +
      `(${seed.counts.pendingInMain} pending, ${seed.counts.notifiedInMain} notified), ${seed.recipientIds.length} ` +
      `recipients; ${seed.counts.items} items in ${LAYOUT.organizations} organizations. ${LOAD.connections} connections, ` +
      `${LOAD.measureSeconds} s after a ${LOAD.warmUpSeconds} s warm-up. ${os.cpus().length} CPUs, load average ` +
      `${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after.`,
  );
  printTable(
    ['phase', 'call', 'req/s', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'PostgreSQL CPU ms/req', 'errors', 'budget'],
    rows.map((r) => [
      r.phase,
      r.name,
      r.requestsPerSecond.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      perRequest(r.observed.serverCpuMs, r.requests),
      perRequest(r.observed.databaseCpuMs, r.requests),
      String(r.non2xx + r.errors),
      budgetOf(r),
    ]),
  );
  for (const r of rows) if (r.note) console.log(`  ${r.name}: ${r.note}`);
  const failures = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of failures) {
    console.error(`\n!!!!! FAILURE: ${r.name} (${r.phase}): ${JSON.stringify(r.statusCodes)}, ${r.errors} errors`);
  }
  return failures.length ? 1 : 0;
}

const perRequest = (ms: number | undefined, requests: number) =>
  ms === undefined ? '?' : (ms / Math.max(1, requests)).toFixed(2);

function budgetOf(r: Measured): string {
  if (r.kind === 'write') return r.p99 <= BUDGET.writeP99Ms ? 'PASS' : `OVER (p99 <= ${BUDGET.writeP99Ms} ms)`;
  const over = [
    r.p99 > BUDGET.readP99Ms ? `p99 <= ${BUDGET.readP99Ms} ms` : '',
    r.requestsPerSecond < BUDGET.readRps ? `>= ${BUDGET.readRps} req/s` : '',
  ].filter(Boolean);
  return over.length ? `OVER (${over.join(', ')})` : 'PASS';
}

/** Whether the planner has statistics for mail_items: a bulk load has none until ANALYZE. */
async function statisticsOf(databaseUrl: string): Promise<string> {
  return withClient(databaseUrl, async (c) => {
    const { rows } = await c.query<{ n: number }>(
      `select count(*)::int n from pg_stats where schemaname = 'public' and tablename = 'mail_items'`,
    );
    return rows[0]!.n === 0 ? 'no statistics on mail_items' : `${rows[0]!.n} column statistics on mail_items`;
  });
}

runBenchmark(main, TIMEOUT_MS);
