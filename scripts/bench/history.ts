/**
 * History benchmark (issue 4): on 1,000,000 mail items across 1,000 organizations, of which the
 * signed-in user's holds 100,000, the p99 (and req/s, p50) of the History stat cards
 * (GET /api/history/stats) and first page (GET /api/history?limit=50) for range 7, 90 and all time
 * at 20 connections; the SQL time of their statements alone (EXPLAIN ANALYZE); and the time and
 * the server's peak memory growth (RSS and heap, sampled in-process every 50 ms) to export all
 * 100,000 rows of the big organization as CSV. Timing never fails the run; a non-2xx answer, a
 * connection error or a wrong export line count does (exit 1).
 *
 *   npx tsx scripts/bench/history.ts [--plans]     (--plans prints the EXPLAIN output too)
 *
 * BENCH_ITEMS / BENCH_MAIN_ITEMS / BENCH_ORGS shrink the data set for a quick try.
 * Loopback only, in a fresh temporary data folder (or, with DATABASE_URL, a fresh
 * `bench_<timestamp>` database) that is removed at the end, whatever happens.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';
import { historyRepository } from '../../src/server/modules/history/history.repository';
import {
  mailItemExportBatch,
  mailItemFilterStats,
  mailItemsRepository,
  type MailItemSetFilters,
} from '../../src/server/modules/mail-items/mail-items.repository';
import { EXPORT_BATCH_ROWS } from '../../src/server/modules/history/history.service';
import { explainStatements, type ExplainSummary, type ExplainTarget } from './explain';
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
  verdict,
  type Account,
} from './harness';
import { HISTORY_SEED, seedHistory } from './history-seed';
import { measureEndpoint, type LoadOptions, type LoadResult } from './load';
import { createObserver, type Observation } from './observe';

const BUDGET = { p99Ms: 50, exportMs: 10_000, exportGrowthMb: 100 };
const LOAD: LoadOptions = { connections: 20, warmUpSeconds: 2, measureSeconds: 8 };
const RANGES = [
  { range: '7', label: '7 days' },
  { range: '90', label: '90 days' },
  { range: '0', label: 'all time' },
] as const;
const TIMEOUT_MS = 350_000;
const MEMORY_SAMPLE_MS = 50;
const SHOW_PLANS = process.argv.includes('--plans');
const MB = 1024 * 1024;

type Measured = LoadResult & { observed: Observation };
type Reply = { route: string; summary: string };
type ExportResult = {
  status: number;
  bytes: number;
  lines: number;
  ttfbMs: number;
  totalMs: number;
  baseline: { rss: number; heapUsed: number };
  peak: { rss: number; heapUsed: number };
  samples: number;
};

async function main(): Promise<number> {
  const loadBefore = os.loadavg()[0]!;
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  const server = await startBenchServer(dataDir, database);
  const account = await signUp(server.url);

  log(`seeding ${HISTORY_SEED.totalItems} mail items in ${HISTORY_SEED.organizations} organizations ...`);
  const seedStarted = performance.now();
  const seed = await seedHistory(database.url, account.organizationId, account.userId);
  const seedMs = performance.now() - seedStarted;
  log(
    `seeded ${seed.items} mail items (${seed.mainItems} in the signed-in organization) in ${(seedMs / 1000).toFixed(1)} s ` +
      `(insert ${(seed.timings.insertMs / 1000).toFixed(1)} s, indexes ${(seed.timings.indexMs / 1000).toFixed(1)} s, ` +
      `vacuum analyze ${(seed.timings.vacuumMs / 1000).toFixed(1)} s)`,
  );

  const replies = await checkReplies(server.url, account);
  log('EXPLAIN ANALYZE of the stats, page and count statements ...');
  const plans = await explainStatements(database.url, await explainTargets(database.url, account.organizationId));

  const observer = createObserver(database.url);
  onCleanup(observer.close);
  const headers = accountHeaders(account);
  const results: Measured[] = [];
  for (const { range, label } of RANGES) {
    for (const route of [`/api/history/stats?range=${range}`, `/api/history?range=${range}&limit=50`]) {
      const name = `GET ${route} (${label})`;
      log(`load: ${name} ...`);
      let observed: Observation | undefined;
      const result = await measureEndpoint(
        server.url,
        { name, path: route, headers },
        { beforeMeasured: observer.start, afterMeasured: async () => void (observed = await observer.stop()) },
        LOAD,
      );
      results.push({ ...result, observed: observed! });
    }
  }

  log('export: GET /api/history/export?range=0 ...');
  const exported = await measureExport(server.url, account);
  const loadAfter = os.loadavg()[0]!;

  console.log(
    `\nHistory: ${seed.items} mail items in ${HISTORY_SEED.organizations} organizations; the signed-in one holds ` +
      `${seed.mainItems} (${HISTORY_SEED.main.recipients} recipients); seeded in ${(seedMs / 1000).toFixed(1)} s` +
      (seed.fkTriggersSkipped ? ' (foreign-key triggers skipped)' : ''),
  );
  console.log(
    `Machine: ${os.cpus().length} CPUs (server, PostgreSQL and autocannon share them); 1-minute load average ` +
      `${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`,
  );
  console.log('\nWhat each range answers (signed-in organization)');
  for (const r of replies) console.log(`  ${r.route}: ${r.summary}`);
  printPlans(plans);
  const loadFailed = printLoad(results);
  const exportFailed = printExport(exported, seed.mainItems);
  return loadFailed || exportFailed ? 1 : 0;
}

/** One call of each, before the load: it must answer 200, and the totals show the ranges differ. */
async function checkReplies(baseUrl: string, account: Account): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (const { range } of RANGES) {
    for (const route of [`/api/history/stats?range=${range}`, `/api/history?range=${range}&limit=50`]) {
      const response = await fetch(baseUrl + route, { headers: accountHeaders(account) });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`GET ${route} answered ${response.status}: ${text}`);
      const summary = route.includes('/stats')
        ? text
        : `${(JSON.parse(text) as unknown[]).length} items of X-Total-Count ${response.headers.get('x-total-count')}, ` +
          `${Buffer.byteLength(text)} bytes`;
      replies.push({ route, summary });
    }
  }
  return replies;
}

/** The statements the service sends for each range, with the range start the server resolves. */
async function explainTargets(databaseUrl: string, organizationId: string): Promise<ExplainTarget[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const db = drizzle(pool, { schema }) as unknown as Db;
  try {
    const targets: ExplainTarget[] = [];
    for (const { range, label } of RANGES) {
      const bounds = await historyRepository.bounds(db, organizationId, Number(range), null, null);
      if (!bounds) throw new Error('no bounds for the signed-in organization');
      const filters: MailItemSetFilters = { dateFrom: bounds.rangeStart ?? undefined };
      targets.push(
        { name: `stats ${label}`, run: (d) => mailItemFilterStats(d, organizationId, filters) },
        {
          name: `page  ${label}`,
          run: (d) => mailItemsRepository.page(d, organizationId, { ...filters, order: 'desc', limit: 50, offset: 0 }),
        },
        { name: `count ${label}`, run: (d) => mailItemsRepository.count(d, organizationId, filters) },
      );
      if (range === '0') {
        targets.push({
          name: `export batch (${EXPORT_BATCH_ROWS} rows, first)`,
          run: (d) => mailItemExportBatch(d, organizationId, filters, bounds.timezone, undefined, EXPORT_BATCH_ROWS),
        });
      }
    }
    return targets;
  } finally {
    await pool.end();
  }
}

/**
 * The download runs in a child process (so that its buffers are not counted as the server's),
 * streaming the body to nowhere while counting bytes and line feeds. This process, the server's,
 * samples its own memory every MEMORY_SAMPLE_MS meanwhile, against a baseline taken just before.
 */
async function measureExport(baseUrl: string, account: Account): Promise<ExportResult> {
  const gc = exposeGc();
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const baselineSamples: NodeJS.MemoryUsage[] = [];
  for (let i = 0; i < 5; i++) {
    baselineSamples.push(process.memoryUsage());
    await new Promise((resolve) => setTimeout(resolve, MEMORY_SAMPLE_MS));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const baseline = {
    rss: median(baselineSamples.map((s) => s.rss)),
    heapUsed: median(baselineSamples.map((s) => s.heapUsed)),
  };
  const peak = { ...baseline };
  let samples = 0;
  const sample = () => {
    const m = process.memoryUsage();
    samples++;
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  };
  const timer = setInterval(sample, MEMORY_SAMPLE_MS);
  try {
    const child = await runDownload(`${baseUrl}/api/history/export?range=0`, accountHeaders(account));
    sample();
    return { ...child, baseline, peak, samples };
  } finally {
    clearInterval(timer);
  }
}

const DOWNLOAD_SCRIPT = `
const [url, headers] = [process.argv[1], JSON.parse(process.argv[2])];
(async () => {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const ttfbMs = performance.now() - started;
  let bytes = 0, lines = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  process.stdout.write(JSON.stringify({ status: response.status, bytes, lines, ttfbMs, totalMs: performance.now() - started }));
})().catch((err) => { console.error(err); process.exit(1); });
`;

function runDownload(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; bytes: number; lines: number; ttfbMs: number; totalMs: number }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, ['-e', DOWNLOAD_SCRIPT, url, JSON.stringify(headers)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code !== 0) reject(new Error(`the download process exited with ${code}`));
        else resolve(JSON.parse(out));
      });
    },
  );
}

/** A collection before the baseline makes it reproducible; without --expose-gc, V8 lets us turn it on. */
function exposeGc(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

function printPlans(plans: ExplainSummary[]) {
  console.log('\nSQL alone (EXPLAIN ANALYZE, median of 5, one connection, no load)');
  printTable(
    ['statement', 'exec ms', 'plan ms', 'mail_items read by', 'rows visited', 'sort'],
    plans.map((p) => [
      p.name,
      p.executionMs.toFixed(2),
      p.planningMs.toFixed(2),
      p.mailItemsAccess.join(' + ') || '?',
      String(p.mailItemsVisited),
      p.sort ?? 'none (index order)',
    ]),
  );
  if (!SHOW_PLANS) return;
  for (const p of plans) console.log(`\n--- ${p.name}\n${p.plan}`);
}

/** Prints the load table; answers true when any request failed. */
function printLoad(results: Measured[]): boolean {
  console.log(
    `\nHTTP load (${LOAD.connections} connections, ${LOAD.measureSeconds} s after a ${LOAD.warmUpSeconds} s warm-up)`,
  );
  printTable(
    ['endpoint', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'budget'],
    results.map((r) => [
      r.name,
      r.requestsPerSecond.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      String(r.non2xx),
      String(r.errors),
      verdict(r.p99, BUDGET.p99Ms, `p99 < ${BUDGET.p99Ms} ms`),
    ]),
  );
  console.log('\nWhere the time went during each measured run (event loop: the server, in this process)');
  for (const r of results) {
    const { eventLoopBusy, busySessions, states } = r.observed;
    const top = states
      .slice(0, 2)
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

/** Prints the export figures; answers true when the download failed or has the wrong line count. */
function printExport(e: ExportResult, mainItems: number): boolean {
  const expectedLines = mainItems + 1;
  const rssGrowth = (e.peak.rss - e.baseline.rss) / MB;
  const heapGrowth = (e.peak.heapUsed - e.baseline.heapUsed) / MB;
  const growth = Math.max(rssGrowth, heapGrowth);
  console.log(`\nExport of all time (GET /api/history/export?range=0, streamed to nowhere by a child process)`);
  printTable(
    ['figure', 'value', 'budget'],
    [
      ['status', String(e.status), e.status === 200 ? 'ok' : 'FAILED'],
      [
        'lines (header + rows)',
        String(e.lines),
        e.lines === expectedLines ? `ok (= ${expectedLines})` : `WRONG (expected ${expectedLines})`,
      ],
      ['bytes', `${e.bytes} (${(e.bytes / MB).toFixed(1)} MB)`, ''],
      ['first byte', `${e.ttfbMs.toFixed(0)} ms`, ''],
      [
        'total time',
        `${(e.totalMs / 1000).toFixed(2)} s`,
        verdict(e.totalMs, BUDGET.exportMs, `< ${BUDGET.exportMs / 1000} s`),
      ],
      ['rows/s', (mainItems / (e.totalMs / 1000)).toFixed(0), ''],
      [
        'server RSS',
        `${(e.baseline.rss / MB).toFixed(0)} MB -> peak ${(e.peak.rss / MB).toFixed(0)} MB (+${rssGrowth.toFixed(1)} MB)`,
        '',
      ],
      [
        'server heap used',
        `${(e.baseline.heapUsed / MB).toFixed(0)} MB -> peak ${(e.peak.heapUsed / MB).toFixed(0)} MB (+${heapGrowth.toFixed(1)} MB)`,
        '',
      ],
      [
        'peak growth',
        `+${growth.toFixed(1)} MB (${e.samples} samples every ${MEMORY_SAMPLE_MS} ms)`,
        verdict(growth, BUDGET.exportGrowthMb, `< ${BUDGET.exportGrowthMb} MB`),
      ],
    ],
  );
  const failed = e.status !== 200 || e.lines !== expectedLines;
  if (failed)
    console.error(
      `\n!!!!! FAILURE: export answered ${e.status} with ${e.lines} lines (expected ${expectedLines}) !!!!!`,
    );
  return failed;
}

runBenchmark(main, TIMEOUT_MS);
