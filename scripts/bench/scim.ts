/**
 * SCIM provisioning at scale (issue 43 "Measured", decision 060), against a server started in this
 * process on its own PostgreSQL:
 *
 * 1. a first sync of N users as Entra ID sends them: for each, `GET /Users?filter=userName eq "…"`
 *    (nothing found) then `POST /Users`, CONCURRENCY users at a time;
 * 2. CHANGES changes as an incremental cycle sends them: the filter, then a PATCH ("Replace" of
 *    the department and the office, or `active` "False" for one in ten);
 * 3. beside it, today's CSV import (`POST /api/recipients/import`, recipients.import.ts) of the
 *    same N rows into another organization, in files of IMPORT_MAX_ROWS.
 *
 *   npm run bench:scim                 (N=10000 CHANGES=1000 CONCURRENCY=4 by default)
 *   N=500 CHANGES=50 npm run bench:scim   (a short run while developing)
 *
 * Timing never fails the run; an unexpected answer does (exit 1). On 2 CPUs shared with
 * PostgreSQL the figures are those of a crowded machine.
 */
import os from 'node:os';
import { IMPORT_MAX_ROWS } from '../../src/contract';
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
} from './harness';

const N = Number(process.env.N ?? 10_000);
const CHANGES = Number(process.env.CHANGES ?? Math.round(N / 10));
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

type Person = { first: string; last: string; email: string; phone: string; office: string; department: string };
const DEPARTMENTS = ['Finance', 'Legal', 'Engineering', 'Sales', 'Facilities', 'People'];
const person = (i: number): Person => ({
  first: `Given${i}`,
  last: `Family${i}`,
  email: `person${i}@contoso.example`,
  phone: `+1 555 ${String(i).padStart(6, '0')}`,
  office: `Building ${i % 12}, floor ${i % 7}`,
  department: DEPARTMENTS[i % DEPARTMENTS.length]!,
});

/** The user as Entra's default mappings send it. */
const entraUser = (p: Person, i: number) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE],
  externalId: `entra-${i}`,
  userName: p.email,
  active: true,
  displayName: `${p.first} ${p.last}`,
  emails: [{ primary: true, type: 'work', value: p.email }],
  name: { formatted: `${p.first} ${p.last}`, familyName: p.last, givenName: p.first },
  phoneNumbers: [{ type: 'work', value: p.phone }],
  addresses: [{ type: 'work', formatted: p.office }],
  [ENTERPRISE]: { department: p.department },
});

function percentile(sorted: number[], q: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Runs `work(i)` for i in [0, count) with `concurrency` at a time; answers each call's ms. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>) {
  const timings: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const started = performance.now();
        await work(i);
        timings.push(performance.now() - started);
      }
    }),
  );
  return timings.sort((a, b) => a - b);
}

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  process.env.NOTIFICATIONS_WORKER = process.env.NOTIFICATIONS_WORKER ?? 'false';
  // The bench measures the work, not the limit that protects it.
  process.env.SCIM_RATE_LIMIT_PER_MINUTE = process.env.SCIM_RATE_LIMIT_PER_MINUTE ?? '1000000';
  const server = await startBenchServer(dataDir, database);
  const account = await signUp(server.url);
  const headers = { ...accountHeaders(account), 'content-type': 'application/json' };
  const tokenRes = await fetch(`${server.url}/api/scim/tokens`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench' }),
  });
  if (tokenRes.status !== 201) throw new Error(`token: ${tokenRes.status} ${await tokenRes.text()}`);
  const { token } = (await tokenRes.json()) as { token: string };
  const scim = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/scim/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (res.status === 204 ? null : await res.json()) as Record<string, unknown> };
  };
  const filter = (userName: string) => `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`;

  log(`first sync: ${N} users, filter then create, ${CONCURRENCY} at a time ...`);
  const ids: string[] = new Array(N);
  let started = performance.now();
  const createTimings = await pool(N, CONCURRENCY, async (i) => {
    const p = person(i);
    const found = await scim('GET', filter(p.email));
    if (found.status !== 200 || found.body.totalResults !== 0) throw new Error(`filter: ${found.status}`);
    const created = await scim('POST', '/Users', entraUser(p, i));
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
    ids[i] = String(created.body.id);
  });
  const createMs = performance.now() - started;

  log(`incremental cycle: ${CHANGES} changes, filter then PATCH ...`);
  started = performance.now();
  const changeTimings = await pool(CHANGES, CONCURRENCY, async (k) => {
    const i = Math.floor((k * N) / CHANGES);
    const found = await scim('GET', filter(person(i).email));
    if (found.status !== 200 || found.body.totalResults !== 1) throw new Error(`filter: ${found.status}`);
    const operations =
      k % 10 === 9
        ? [{ op: 'Replace', path: 'active', value: 'False' }]
        : [
            { op: 'Replace', path: `${ENTERPRISE}:department`, value: DEPARTMENTS[(i + 1) % DEPARTMENTS.length] },
            { op: 'Replace', path: 'addresses[type eq "work"].formatted', value: `Building ${(i + 5) % 12}` },
          ];
    const patched = await scim('PATCH', `/Users/${ids[i]}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: operations,
    });
    if (patched.status !== 200) throw new Error(`patch: ${patched.status} ${JSON.stringify(patched.body)}`);
  });
  const changeMs = performance.now() - started;

  log(`today's CSV import of the same ${N} rows into another organization ...`);
  const org = await fetch(`${server.url}/api/organizations`, {
    method: 'POST',
    headers: { cookie: cookieHeader(account.sessionToken), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench CSV' }),
  });
  const csvHeaders = {
    ...accountHeaders({ ...account, organizationId: String(((await org.json()) as { id: string }).id) }),
    'content-type': 'application/json',
  };
  started = performance.now();
  const fileTimings: number[] = [];
  for (let from = 0; from < N; from += IMPORT_MAX_ROWS) {
    const lines = ['first name,last name,email,phone,unit,department,type'];
    for (let i = from; i < Math.min(N, from + IMPORT_MAX_ROWS); i += 1) {
      const p = person(i);
      lines.push([p.first, p.last, p.email, p.phone, `"${p.office}"`, p.department, 'employee'].join(','));
    }
    const fileStarted = performance.now();
    const res = await fetch(`${server.url}/api/recipients/import`, {
      method: 'POST',
      headers: csvHeaders,
      body: JSON.stringify({ csv: lines.join('\n'), skipDuplicates: true }),
    });
    if (res.status !== 200) throw new Error(`import: ${res.status} ${await res.text()}`);
    fileTimings.push(performance.now() - fileStarted);
  }
  const importMs = performance.now() - started;

  const perSecond = (count: number, ms: number) => ((count * 1000) / ms).toFixed(0);
  console.log(`\nSCIM provisioning; ${os.cpus().length} CPUs, node ${process.version}, concurrency ${CONCURRENCY}\n`);
  printTable(
    ['run', 'rows', 'total s', 'rows/s', 'p50 ms (per row)', 'p95 ms', 'max ms'],
    [
      [
        'SCIM first sync (filter + POST)',
        String(N),
        (createMs / 1000).toFixed(1),
        perSecond(N, createMs),
        percentile(createTimings, 0.5).toFixed(1),
        percentile(createTimings, 0.95).toFixed(1),
        percentile(createTimings, 1).toFixed(1),
      ],
      [
        'SCIM changes (filter + PATCH)',
        String(CHANGES),
        (changeMs / 1000).toFixed(1),
        perSecond(CHANGES, changeMs),
        percentile(changeTimings, 0.5).toFixed(1),
        percentile(changeTimings, 0.95).toFixed(1),
        percentile(changeTimings, 1).toFixed(1),
      ],
      [
        `CSV import (${fileTimings.length} file(s) of ≤ ${IMPORT_MAX_ROWS})`,
        String(N),
        (importMs / 1000).toFixed(1),
        perSecond(N, importMs),
        '-',
        '-',
        Math.max(...fileTimings).toFixed(0),
      ],
    ],
  );
  return 0;
}

runBenchmark(main, 60 * 60_000);
