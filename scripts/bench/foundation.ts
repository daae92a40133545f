/**
 * Foundation benchmark (`npm run bench`): throughput and latency of the signed-in read endpoints
 * on a realistically filled database, and the start-up time of `npm start` on an existing data
 * folder. Everything runs on loopback in a fresh temporary data folder (or, with DATABASE_URL,
 * a fresh `bench_<timestamp>` database) that is removed at the end.
 */
import {
  accountHeaders,
  log,
  makeDataDir,
  printTable,
  provisionDatabase,
  rootDir,
  runBenchmark,
  signUp,
  startBenchServer,
  verdict,
  type Account,
  type Database,
} from './harness';
import { measureEndpoint, type LoadResult } from './load';
import { timeQueries, type QueryTiming } from './query-timings';
import { MAIN_ORG, OTHER_ORGS, seedBenchData } from './seed';
import { median, startCommand, timeStartUp } from './startup';

const BUDGET = { dashboardStatsP99Ms: 25, startUpMs: 3000 };
const STARTUP_RUNS = 3;

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  const server = await startBenchServer(dataDir, database);

  const account = await signUp(server.url);
  const seedStarted = performance.now();
  await seedBenchData(database.url, account.organizationId);
  const seedTotal = MAIN_ORG.items + OTHER_ORGS.count * OTHER_ORGS.plan.items;
  log(`seeded ${seedTotal} mail items in ${(performance.now() - seedStarted).toFixed(0)} ms`);

  const queries = await timeQueries(database.url, account);
  const load = await measureEndpoints(server.url, account);

  // `npm start` must find the data folder free: stop our server (and embedded PostgreSQL) first.
  await server.stop();
  await database.stop();
  // Printed now, so that a start-up that fails does not lose them.
  printQueries(queries);
  const failed = printLoad(load);

  printStartUps(await measureStartUps(dataDir, database));
  return failed ? 1 : 0;
}

async function measureEndpoints(baseUrl: string, account: Account): Promise<LoadResult[]> {
  const headers = accountHeaders(account);
  const targets = ['/api/auth/user', '/api/organizations', '/api/dashboard/stats'];
  const results: LoadResult[] = [];
  for (const route of targets) {
    log(`load: GET ${route} ...`);
    results.push(await measureEndpoint(baseUrl, { name: `GET ${route}`, path: route, headers }));
  }
  return results;
}

type StartUps = { label: string; fallback: boolean; runsMs: number[] };

async function measureStartUps(dataDir: string, database: Database): Promise<StartUps> {
  const start = startCommand(rootDir);
  const env: Record<string, string> = { DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn' };
  if (process.env.DATABASE_URL) env.DATABASE_URL = database.url;
  // The first start may build the web client; it only puts the build in place and is not counted.
  log(`start-up: ${start.label} (first run unmeasured) ...`);
  await timeStartUp(start, rootDir, env, 90_000);
  const runsMs: number[] = [];
  for (let i = 0; i < STARTUP_RUNS; i++) runsMs.push(await timeStartUp(start, rootDir, env, 30_000));
  return { label: start.label, fallback: start.fallback, runsMs };
}

function printQueries(timings: QueryTiming[]) {
  console.log('\nSQL alone (sequential, one connection, no load)');
  printTable(
    ['statement', 'mean ms', 'max ms'],
    timings.map((t) => [t.query, t.meanMs.toFixed(2), t.maxMs.toFixed(2)]),
  );
}

/** Prints the load table; answers true when any request failed. */
function printLoad(results: LoadResult[]): boolean {
  console.log(
    `\nHTTP load (50 connections, 10 s after a 2 s warm-up; ${MAIN_ORG.items} items in the org, ${OTHER_ORGS.count} neighbour orgs)`,
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
      r.name === 'GET /api/dashboard/stats'
        ? verdict(r.p99, BUDGET.dashboardStatsP99Ms, `p99 < ${BUDGET.dashboardStatsP99Ms} ms`)
        : '',
    ]),
  );
  const failures = results.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of failures) {
    console.error(
      `\n!!!!! FAILURE: ${r.name} had ${r.non2xx} non-2xx answers and ${r.errors} errors; the figures above are not valid !!!!!`,
    );
  }
  return failures.length > 0;
}

function printStartUps(s: StartUps) {
  console.log(`\nStart-up on an existing data folder: ${s.label}, spawn until GET /api/health answers 200`);
  if (s.fallback)
    console.log(
      '  (scripts/start.mjs does not exist yet: fell back to npx tsx src/server/main.ts; npx adds its own start-up)',
    );
  s.runsMs.forEach((ms, i) => console.log(`  run ${i + 1}: ${ms.toFixed(0)} ms`));
  const m = median(s.runsMs);
  console.log(`  median: ${m.toFixed(0)} ms   ${verdict(m, BUDGET.startUpMs, `< ${BUDGET.startUpMs} ms`)}`);
}

runBenchmark(main, 240_000);
