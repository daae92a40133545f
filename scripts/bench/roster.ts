/**
 * The resident roster's cost (issue 43 "Measured", decision 061): a run of N rows (20,000 by
 * default) with 500 changes, beside today's CSV import of the same rows, against a server started
 * in this process on its own PostgreSQL:
 *
 * - import: the same N rows through POST /api/recipients/import into a second organization, in
 *   files of 5,000 (the import's cap), one after another;
 * - roster first load: "run now" (fetch from a server on loopback, read, diff: it waits, being the
 *   first) and the approval that applies it;
 * - roster run with 500 changes: 200 renamed, 200 moved, 50 new, 50 gone (0.25 %, under the
 *   share: applied at once), and a run with no change.
 *
 *   npm run bench:roster            N=2000 npm run bench:roster   (develop small)
 *
 * Timing never fails the run; an error does (exit 1). On 2 CPUs shared with PostgreSQL the figures
 * are those of a crowded machine.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

const N = Number(process.env.N ?? 20_000);
const IMPORT_FILE_ROWS = 5000;

type Row = { id: string; first: string; last: string; unit: string; email: string };
const people = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `R${i + 1}`,
    first: `Resident${i + 1}`,
    last: `Family${i % 997}`,
    unit: `${1 + Math.floor(i / 4)}-${(i % 4) + 1}`,
    email: `resident${i + 1}@bench.test`,
  }));
const rosterCsv = (rows: Row[]) =>
  [
    'resident_id,first_name,last_name,unit,email',
    ...rows.map((r) => [r.id, r.first, r.last, r.unit, r.email].join(',')),
  ].join('\n');
const importCsv = (rows: Row[]) =>
  ['first_name,last_name,unit,email', ...rows.map((r) => [r.first, r.last, r.unit, r.email].join(','))].join('\n');

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  const server = await startBenchServer(dataDir, database, { NOTIFICATIONS_WORKER: 'false' });
  const account = await signUp(server.url);
  const headers = accountHeaders(account);
  const call = async (method: string, route: string, body?: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extra },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };

  let served = '';
  const files = http.createServer((_, res) => res.writeHead(200, { 'content-type': 'text/csv' }).end(served));
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => files.close(() => resolve())));
  const fileUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/roster.csv`;

  const rows = people(N);
  const timings: string[][] = [];
  const time = async <T>(label: string, work: () => Promise<T>, note: (t: T) => string) => {
    const started = performance.now();
    const result = await work();
    const ms = performance.now() - started;
    timings.push([label, `${Math.round(ms)} ms`, `${Math.round((N / ms) * 1000)} rows/s`, note(result)]);
    log(`${label}: ${Math.round(ms)} ms`);
    return result;
  };

  // Today's CSV import of the same rows, in a second organization of the same admin.
  const second = await call('POST', '/api/organizations', { name: 'Bench Import' });
  await time(
    `CSV import, ${N} rows (files of ${IMPORT_FILE_ROWS})`,
    async () => {
      let created = 0;
      for (let i = 0; i < rows.length; i += IMPORT_FILE_ROWS) {
        const r = await call(
          'POST',
          '/api/recipients/import',
          { csv: importCsv(rows.slice(i, i + IMPORT_FILE_ROWS)), skipDuplicates: true },
          { 'x-organization-id': String(second.id) },
        );
        created += Number(r.created);
      }
      return created;
    },
    (created) => `${created} created`,
  );

  const source = await call('POST', '/api/roster/sources', {
    kind: 'https',
    url: fileUrl,
    mapping: {
      externalId: 'resident_id',
      firstName: 'first_name',
      lastName: 'last_name',
      unit: 'unit',
      email: 'email',
    },
    schedule: 'daily',
  });
  served = rosterCsv(rows);
  await time(
    `Roster first load, ${N} rows (run + approve)`,
    async () => {
      const run = await call('POST', `/api/roster/sources/${String(source.id)}/run`);
      if (run.status !== 'awaiting_approval') throw new Error(`first run: ${JSON.stringify(run)}`);
      return call('POST', `/api/roster/runs/${String(run.id)}/approve`);
    },
    (run) => JSON.stringify(run.counts),
  );

  // 500 changes: 200 renamed, 200 moved, 50 gone, 50 new.
  const changed = rows
    .slice(0, N - 50)
    .map((r, i) => (i < 200 ? { ...r, first: `${r.first}x` } : i < 400 ? { ...r, unit: `${r.unit}B` } : r));
  const added = people(N + 50).slice(N);
  served = rosterCsv([...changed, ...added]);
  await time(
    `Roster run, ${N} rows with 500 changes`,
    () => call('POST', `/api/roster/sources/${String(source.id)}/run`),
    (run) => `${String(run.status)} ${JSON.stringify(run.counts)}`,
  );
  await time(
    `Roster run, ${N} rows, no change`,
    () => call('POST', `/api/roster/sources/${String(source.id)}/run`),
    (run) => `${String(run.status)} ${JSON.stringify(run.counts)}`,
  );

  printTable(['what', 'time', 'rate', 'result'], timings);
  return 0;
}

runBenchmark(main, 15 * 60_000);
