/**
 * Front-desk benchmark (issue 3): the mail item list, intake and status change under load, on
 * 100,000 items across 100 organizations of which the signed-in user's holds 20,000. Reports
 * req/s, p50, p99 and non-2xx at 50 connections, the bytes per listed item, and the SQL time of
 * the list and count statements alone (EXPLAIN ANALYZE), each beside its budget. The reads are
 * measured with caches off (the cold path), then on a second instance with the production cache
 * setting, alone and with an intake every second in the same organization (issue 13). Timing never
 * fails the run; a non-2xx answer or a connection error does (exit 1).
 *
 *   npx tsx scripts/bench/front-desk.ts [--plans]     (--plans prints the EXPLAIN output too)
 *
 * Loopback only, in a fresh temporary data folder (or, with DATABASE_URL, a fresh
 * `bench_<timestamp>` database) that is removed at the end, whatever happens.
 */
import os from 'node:os';
import { MailItemListQuery } from '../../src/contract';
import { mailItemsRepository, type MailItemFilters } from '../../src/server/modules/mail-items/mail-items.repository';
import { explainStatements, type ExplainSummary, type ExplainTarget } from './explain';
import { FRONT_DESK, seedFrontDesk, type FrontDeskSeed } from './front-desk-seed';
import {
  accountHeaders,
  log,
  onCleanup,
  makeDataDir,
  printTable,
  provisionDatabase,
  runBenchmark,
  signUp,
  startBenchServer,
  verdict,
  type Account,
} from './harness';
import { measureEndpoint, type LoadTarget } from './load';
import { createObserver, type Observation } from './observe';
import { measureCreate, measureStatusChange, pendingItemIds, type Kind, type Measured } from './front-desk-writes';

const BUDGET = { readP99Ms: 30, writeP99Ms: 50, bytesPerItem: 2048 };
// Eleven measured runs of about 12 s each, the seeding and the plans.
const TIMEOUT_MS = 300_000;
const SHOW_PLANS = process.argv.includes('--plans');

/**
 * The list calls of the front desk: Pending Pickups and Mail Intake as the screens ask them (list
 * rows, view=summary), and the pending items as full items, as an API client reads them.
 */
const LISTS = [
  { label: 'pending, full items', query: 'status=pending' },
  { label: 'Pending Pickups', query: 'status=pending,notified&order=asc&limit=50&view=summary' },
  { label: 'Mail Intake', query: 'limit=25&view=summary' },
] as const;

type ReplySize = { label: string; query: string; items: number; total: string; bytes: number };

async function main(): Promise<number> {
  const loadBefore = os.loadavg()[0]!;
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  // The web process alone, as in a deployment whose notification worker runs in its own process
  // (NOTIFICATIONS_WORKER=false on web instances): the worker would otherwise spend the same two
  // CPUs on the 100,000 seeded items' reminders and on the events of every write measured here.
  // Its own throughput is `npm run bench:notifications`.
  process.env.NOTIFICATIONS_WORKER = process.env.NOTIFICATIONS_WORKER ?? 'false';
  // Caches off: the cold path every read takes after a write (issue 13 measures both in one run).
  const server = await startBenchServer(dataDir, database, { CACHE_TTL_MS: '0' });
  const account = await signUp(server.url);

  const seedStarted = performance.now();
  const seed = await seedFrontDesk(database.url, account.organizationId, account.userId);
  log(
    `seeded ${seed.counts.items} mail items and ${seed.counts.history} history rows in ` +
      `${(performance.now() - seedStarted).toFixed(0)} ms`,
  );
  const pendingPool = await pendingItemIds(database.url, account.organizationId);

  const sizes = await measureReplySizes(server.url, account);
  log('EXPLAIN ANALYZE of the list and count statements ...');
  const plans = await explainStatements(database.url, explainTargets(account.organizationId));

  const observer = createObserver(database.url);
  onCleanup(observer.close);
  const measureOn = async (baseUrl: string, target: LoadTarget, kind: Kind): Promise<Measured> => {
    log(`load: ${target.name} ...`);
    let observed: Observation | undefined;
    const result = await measureEndpoint(baseUrl, target, {
      beforeMeasured: observer.start,
      afterMeasured: async () => void (observed = await observer.stop()),
    });
    return { kind, observed: observed!, ...result };
  };
  const measure = (target: LoadTarget, kind: Kind) => measureOn(server.url, target, kind);

  const headers = accountHeaders(account);
  const results: Measured[] = [];
  for (const list of LISTS) {
    const route = `/api/mail-items?${list.query}`;
    results.push(await measure({ name: `GET ${route} (${list.label})`, path: route, headers }, 'read'));
  }
  results.push(await measureCreate(measure, dataDir, database.url, account, seed));
  results.push(await measureStatusChange(measure, dataDir, database.url, account, pendingPool));

  // The same reads on a second instance with the production cache setting, on the same database:
  // first with no writes (every read after the first a hit), then with an intake every second in
  // the same organization (a busy desk: each write empties the organization's cached lists).
  const cached = await startBenchServer(dataDir, database, { CACHE_TTL_MS: undefined });
  for (const list of LISTS) {
    const route = `/api/mail-items?${list.query}`;
    results.push(await measureOn(cached.url, { name: `GET ${route} (caches on)`, path: route, headers }, 'read'));
  }
  const intakes = intakeEverySecond(cached.url, account, seed);
  for (const list of LISTS) {
    const route = `/api/mail-items?${list.query}`;
    const name = `GET ${route} (caches on, an intake a second)`;
    results.push(await measureOn(cached.url, { name, path: route, headers }, 'read'));
  }
  const written = await intakes.stop();
  results.at(-1)!.note = `${written} intakes during the mixed runs, one a second`;
  const loadAfter = os.loadavg()[0]!;

  printSummary(seed, loadBefore, loadAfter);
  printPlans(plans);
  printSizes(sizes);
  return printLoad(results) ? 1 : 0;
}

/** Logs a package every second in the organization until stopped; answers how many were logged. */
function intakeEverySecond(baseUrl: string, account: Account, seed: FrontDeskSeed) {
  let logged = 0;
  let failure: Error | undefined;
  const timer = setInterval(() => {
    const i = logged;
    fetch(`${baseUrl}/api/mail-items`, {
      method: 'POST',
      headers: { ...accountHeaders(account), 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'package',
        recipientId: seed.recipientIds[i % seed.recipientIds.length],
        locationId: seed.locationIds[i % seed.locationIds.length],
        trackingNumber: `1ZMIXED${String(i).padStart(8, '0')}`,
      }),
    })
      .then((res) => (res.status === 201 ? (logged += 1) : (failure ??= new Error(`intake answered ${res.status}`))))
      .catch((err: Error) => (failure ??= err));
  }, 1000);
  return {
    async stop() {
      clearInterval(timer);
      if (failure) throw failure;
      return logged;
    },
  };
}

/** One reply of each list, before any write: its bytes over its item count. */
async function measureReplySizes(baseUrl: string, account: Account): Promise<ReplySize[]> {
  const sizes: ReplySize[] = [];
  for (const list of LISTS) {
    const response = await fetch(`${baseUrl}/api/mail-items?${list.query}`, { headers: accountHeaders(account) });
    const text = await response.text();
    if (response.status !== 200)
      throw new Error(`GET /api/mail-items?${list.query} answered ${response.status}: ${text}`);
    sizes.push({
      ...list,
      items: (JSON.parse(text) as unknown[]).length,
      total: response.headers.get('x-total-count') ?? '?',
      bytes: Buffer.byteLength(text),
    });
  }
  return sizes;
}

/** The list and count statements behind each list call, built as the service builds them. */
function explainTargets(organizationId: string): ExplainTarget[] {
  return LISTS.flatMap((list) => {
    const q = MailItemListQuery.parse(Object.fromEntries(new URLSearchParams(list.query)));
    const filters: MailItemFilters = {
      statuses: q.status
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      order: q.order,
      limit: q.limit,
      offset: q.offset,
    };
    const { order: _order, limit: _limit, offset: _offset, ...countFilters } = filters;
    return [
      { name: `list  ${list.query}`, run: (db) => mailItemsRepository.page(db, organizationId, filters, q.view) },
      { name: `count ${list.query}`, run: (db) => mailItemsRepository.count(db, organizationId, countFilters) },
    ];
  });
}

function printSummary(seed: FrontDeskSeed, loadBefore: number, loadAfter: number) {
  console.log(
    `\nFront desk: ${seed.counts.items} mail items (${seed.counts.history} history rows) in ${FRONT_DESK.organizations} ` +
      `organizations; the signed-in one holds ${FRONT_DESK.main.items} (${seed.counts.pendingInMain} pending, ` +
      `${seed.counts.notifiedInMain} notified), ${seed.recipientIds.length} recipients, ${seed.locationIds.length} locations`,
  );
  // Server, PostgreSQL and load generator share these CPUs: anything else running skews the figures.
  console.log(
    `Machine: ${os.cpus().length} CPUs; 1-minute load average ${loadBefore.toFixed(1)} before the run, ` +
      `${loadAfter.toFixed(1)} after the load`,
  );
}

function printPlans(plans: ExplainSummary[]) {
  console.log('\nSQL alone (EXPLAIN ANALYZE, median of 5, one connection, no load; before any write)');
  printTable(
    ['statement', 'exec ms', 'plan ms', 'mail_items read by', 'rows visited', 'filtered out', 'sort'],
    plans.map((p) => [
      p.name,
      p.executionMs.toFixed(2),
      p.planningMs.toFixed(2),
      p.mailItemsAccess.join(' + ') || '?',
      String(p.mailItemsVisited),
      String(p.mailItemsFiltered),
      p.sort ?? 'none (index order)',
    ]),
  );
  if (!SHOW_PLANS) return;
  for (const p of plans) console.log(`\n--- ${p.name}\n${p.plan}`);
}

function printSizes(sizes: ReplySize[]) {
  console.log('\nList reply size (before any write)');
  printTable(
    ['list', 'items', 'of total', 'bytes', 'bytes/item', 'budget'],
    sizes.map((s) => {
      const perItem = s.items ? s.bytes / s.items : 0;
      return [
        `GET /api/mail-items?${s.query} (${s.label})`,
        String(s.items),
        s.total,
        String(s.bytes),
        perItem.toFixed(0),
        verdict(perItem, BUDGET.bytesPerItem, `< ${BUDGET.bytesPerItem} B/item`),
      ];
    }),
  );
}

/** Prints the load table; answers true when any request failed. */
function printLoad(results: Measured[]): boolean {
  console.log(
    '\nHTTP load (50 connections, 10 s after a 2 s warm-up): caches off (reads, then the writes), then the ' +
      'reads on an instance with the production cache setting, alone and with an intake a second',
  );
  printTable(
    ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'budget'],
    results.map((r) => {
      const budget = r.kind === 'read' ? BUDGET.readP99Ms : BUDGET.writeP99Ms;
      return [
        r.name,
        r.requestsPerSecond.toFixed(0),
        r.p50.toFixed(1),
        r.p99.toFixed(1),
        String(r.non2xx),
        String(r.errors),
        verdict(r.p99, budget, `p99 < ${budget} ms`),
      ];
    }),
  );
  for (const r of results) if (r.note) console.log(`  ${r.name}: ${r.note}`);

  console.log('\nWhere the time went during each measured run (event loop: the server, in this process)');
  for (const r of results) {
    const { eventLoopBusy, busySessions, states } = r.observed;
    const top = states
      .slice(0, 3)
      .map((s) => `${(100 * s.share).toFixed(0)}% ${s.state}`)
      .join('; ');
    console.log(
      `  ${r.name}: event loop ${(100 * eventLoopBusy).toFixed(0)}% busy; ${busySessions.toFixed(1)} database ` +
        `sessions busy on average${top ? `: ${top}` : ''}`,
    );
  }
  const failures = results.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of failures) {
    console.error(
      `\n!!!!! FAILURE: ${r.name} had ${r.non2xx} non-2xx answers ${JSON.stringify(r.statusCodes)} and ` +
        `${r.errors} errors; the figures above are not valid !!!!!`,
    );
  }
  return failures.length > 0;
}

runBenchmark(main, TIMEOUT_MS);
