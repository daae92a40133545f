/**
 * Read your own writes across instances (issue 27, item 1; decision 037), measured from outside
 * as a browser meets it: two instances on one database with the production cache setting, real
 * HTTP, one call after the other.
 *
 * - 60 times: B reads Mail Intake (so it has the page cached), A logs an item, B reads Mail
 *   Intake at once. A miss is a B reply without the item; for each miss the script polls B every
 *   millisecond and reports how much later the item showed.
 * - 30 times: a new session reads on B, signs out on A, and B is asked at once. A stale accept is
 *   a 200 from B.
 * - Then what the cached read costs now that who may call is read on every request: Mail Intake
 *   on B with caches on, 20 connections, against the same read with caches off.
 *
 *   npx tsx scripts/bench/read-your-writes.ts          (DATABASE_URL=… to run on another PostgreSQL)
 */
import os from 'node:os';
import {
  accountHeaders,
  cookieHeader,
  log,
  makeDataDir,
  printTable,
  provisionDatabase,
  runBenchmark,
  signUp,
  startBenchServer,
  type Account,
} from './harness';
import { measureEndpoint } from './load';
import { SESSION_COOKIE } from '../../src/server/plugins/session';

const WRITE_TRIES = 60;
const SIGN_OUT_TRIES = 30;
const INTAKE_PAGE = '/api/mail-items?limit=25';

async function call(base: string, path: string, headers: Record<string, string>, init: RequestInit = {}) {
  const response = await fetch(base + path, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
  const text = await response.text();
  return { status: response.status, text };
}

async function logItem(base: string, account: Account, tracking: string) {
  const res = await call(base, '/api/mail-items', accountHeaders(account), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'package', trackingNumber: tracking, sender: 'Bench' }),
  });
  if (res.status !== 201) throw new Error(`intake answered ${res.status}: ${res.text}`);
}

async function writesThenReads(a: string, b: string, account: Account) {
  const late: number[] = [];
  for (let n = 0; n < WRITE_TRIES; n += 1) {
    await call(b, INTAKE_PAGE, accountHeaders(account));
    const tracking = `RYW${Date.now()}${n}`;
    await logItem(a, account, tracking);
    const first = await call(b, INTAKE_PAGE, accountHeaders(account));
    if (first.text.includes(tracking)) continue;
    const missedAt = performance.now();
    while (!(await call(b, INTAKE_PAGE, accountHeaders(account))).text.includes(tracking)) {
      await new Promise((r) => setTimeout(r, 1));
    }
    late.push(performance.now() - missedAt);
  }
  return late;
}

async function signOutsThenCalls(a: string, b: string) {
  let accepted = 0;
  for (let n = 0; n < SIGN_OUT_TRIES; n += 1) {
    const login = await fetch(`${a}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench@bench.test', password: 'bench-password-1' }),
    });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (!cookie) throw new Error(`login answered ${login.status} without a session`);
    const headers = {
      cookie: cookieHeader(decodeURIComponent(cookie.slice(SESSION_COOKIE.length + 1).split(';')[0]!)),
    };
    if ((await call(b, '/api/auth/user', headers)).status !== 200) throw new Error('B refused a live session');
    const out = await call(a, '/api/logout', headers, { method: 'POST' });
    if (out.status >= 300) throw new Error(`logout answered ${out.status}`);
    if ((await call(b, '/api/auth/user', headers)).status === 200) accepted += 1;
  }
  return accepted;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  process.env.NOTIFICATIONS_WORKER = 'false';
  // CACHE_TTL_MS unset: the production setting.
  const a = await startBenchServer(dataDir, database, { CACHE_TTL_MS: undefined });
  const b = await startBenchServer(dataDir, database, { CACHE_TTL_MS: undefined });
  const account = await signUp(a.url);
  for (let n = 0; n < 200; n += 1) await logItem(a.url, account, `SEED${n}`);

  log(`${WRITE_TRIES} writes on A, each read at once on B ...`);
  const late = await writesThenReads(a.url, b.url, account);
  log(`${SIGN_OUT_TRIES} sign-outs on A, each session tried at once on B ...`);
  const accepted = await signOutsThenCalls(a.url, b.url);

  log('Mail Intake on B, caches on and off, 20 connections ...');
  const cold = await startBenchServer(dataDir, database, { CACHE_TTL_MS: '0' });
  const target = { name: 'Mail Intake, 25 rows', path: INTAKE_PAGE, headers: accountHeaders(account) };
  const load = { connections: 20, warmUpSeconds: 2, measureSeconds: 8 };
  const warm = await measureEndpoint(b.url, target, {}, load);
  const off = await measureEndpoint(cold.url, target, {}, load);

  console.log(
    `\nRead your own writes, two instances on one database, production cache setting. ${os.cpus().length} CPUs.`,
  );
  printTable(
    ['check', 'tries', 'stale', 'late by (median / worst)'],
    [
      [
        'item logged on A, next Mail Intake read on B',
        String(WRITE_TRIES),
        String(late.length),
        late.length ? `${median(late).toFixed(1)} / ${Math.max(...late).toFixed(1)} ms` : '-',
      ],
      ['sign-out on A, same session on B', String(SIGN_OUT_TRIES), String(accepted), '-'],
    ],
  );
  console.log('\nWhat a cached read costs with who may call read on every request:');
  printTable(
    ['read', 'caches', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
    [
      [
        target.name,
        'on',
        warm.requestsPerSecond.toFixed(0),
        warm.p50.toFixed(1),
        warm.p99.toFixed(1),
        String(warm.non2xx + warm.errors),
      ],
      [
        target.name,
        'off',
        off.requestsPerSecond.toFixed(0),
        off.p50.toFixed(1),
        off.p99.toFixed(1),
        String(off.non2xx + off.errors),
      ],
    ],
  );
  return late.length > 0 || accepted > 0 || warm.non2xx + warm.errors + off.non2xx + off.errors > 0 ? 1 : 0;
}

runBenchmark(main, 300_000);
