/**
 * What the live desk's streams cost (issue 29, item 4; decision 043), on one built instance
 * (`node dist/server/main.mjs`, a child process, so its memory is its own):
 *
 * - STREAMS open streams (GET /api/events) spread over ORGANIZATIONS organizations, each with
 *   a session of its own, held by this process;
 * - an intake a second per organization (POST /api/mail-items, round robin), all the while;
 * - the instance's RSS and V8 heap (its /metrics) before the streams open and once they are open:
 *   memory per stream;
 * - delivery of each intake's event to the streams of its organization: from the commit (the
 *   event's `at`, stamped by the writer after its autocommitted batch, same machine's clock) to
 *   receipt here, p50 / p99 over every stream's receipt, and from the POST's send as an upper bound;
 * - the desk's throughput meanwhile: Mail Intake (25 rows) with autocannon, 20 connections, with
 *   the streams open, and again after they are closed (the intakes go on in both runs).
 *
 *   npm run build && npm run bench:live-streams     (DATABASE_URL=… for a PostgreSQL of your own)
 *   STREAMS=1000 ORGANIZATIONS=100 INTAKES_PER_ORG_PER_SECOND=1 to change the load.
 *
 * ONE_SESSION_STREAMS=500 instead runs issue 41's probe (item 5, decision 051): ONE session opens
 * that many streams of one organization, and the instance's open files (/proc/<pid>/fd) and the
 * database's transactions per second (pg_stat_database, the instance otherwise idle: the streams'
 * session re-checks) are read before and after; with the caps, the session holds at most
 * LIVE_STREAMS_PER_SESSION of them and the rest were ended as `replaced`. UNCAPPED=1 lifts the
 * caps to their largest values: the figures as they were before them.
 *
 * This process (1,000 sockets, the event parsing, autocannon's workers) shares the machine's CPUs
 * with the instance and PostgreSQL: on 2 CPUs the figures are those of a crowded machine.
 */
import http from 'node:http';
import os from 'node:os';
import fs from 'node:fs';
import crypto from 'node:crypto';
import { ORGANIZATION_HEADER } from '../../src/contract';
import { cookieHeader, log, makeDataDir, printTable, provisionDatabase, runBenchmark } from './harness';
import { measureEndpoint, type LoadResult } from './load';
import { startInstance } from './scale-out-processes';
import { createSessions, withClient } from './scale-out-seed';

const STREAMS = Number(process.env.STREAMS ?? 1000);
const ORGANIZATIONS = Number(process.env.ORGANIZATIONS ?? 100);
const INTAKES_PER_ORG_PER_SECOND = Number(process.env.INTAKES_PER_ORG_PER_SECOND ?? 1);
const ONE_SESSION_STREAMS = Number(process.env.ONE_SESSION_STREAMS ?? 0);
/** How long the database's transaction rate is sampled, before and after the probe's streams. */
const RATE_SECONDS = Number(process.env.RATE_SECONDS ?? 30);
const MEASURE_SECONDS = 10;
const QUIET_SECONDS = 8;
/** Intakes waiting for their answers at most; past it the loop skips (counted) rather than pile up. */
const MAX_INTAKES_IN_FLIGHT = 50;
const METRICS_TOKEN = crypto.randomBytes(16).toString('hex');

type Org = { id: string; token: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

/** The instance's resident memory, from /proc. */
function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** The instance's open file descriptors (sockets included), from /proc. */
const openFiles = (pid: number) => fs.readdirSync(`/proc/${pid}/fd`).length;

/** The database's committed and rolled back transactions per second over `seconds` (pg_stat_database). */
async function transactionsPerSecond(databaseUrl: string, seconds: number): Promise<number> {
  const read = () =>
    withClient(databaseUrl, async (c) => {
      const { rows } = await c.query<{ n: string }>(
        'select xact_commit + xact_rollback n from pg_stat_database where datname = current_database()',
      );
      return Number(rows[0]!.n);
    });
  const first = await read();
  await sleep(seconds * 1000);
  // Minus the first read's own transaction.
  return Math.max(0, (await read()) - first - 1) / seconds;
}

/** The instance's V8 heap in use, from its Prometheus metrics. */
async function heapUsedBytes(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const m = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(text);
  if (!m) throw new Error('no nodejs_heap_size_used_bytes in /metrics');
  return Number(m[1]);
}

/** Memory once things settle: a few samples after a pause, the median (GC comes and goes). */
async function memory(pid: number, url: string) {
  await sleep(2000);
  const rss: number[] = [];
  const heap: number[] = [];
  for (let n = 0; n < 5; n += 1) {
    rss.push(rssBytes(pid));
    heap.push(await heapUsedBytes(url));
    await sleep(300);
  }
  const mid = (v: number[]) => [...v].sort((a, b) => a - b)[2]!;
  return { rss: mid(rss), heap: mid(heap) };
}

async function post(url: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers };
}

/** One account with ORGANIZATIONS organizations (through the API, then set to unlimited plans). */
async function seed(url: string, databaseUrl: string): Promise<{ orgs: Org[]; userId: string }> {
  const registered = await post(
    url,
    '/api/register',
    {
      username: 'livebench',
      email: 'live@bench.test',
      password: 'live-bench-password-1',
    },
    {},
  );
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${registered.text}`);
  const userId = (JSON.parse(registered.text) as { id: string }).id;
  const [session] = await createSessions(databaseUrl, userId, 1);
  const ids: string[] = [];
  for (let n = 0; n < ORGANIZATIONS; n += 1) {
    const res = await post(url, '/api/organizations', { name: `Live desk ${n}` }, { cookie: cookieHeader(session!) });
    if (res.status !== 201) throw new Error(`organization answered ${res.status}: ${res.text}`);
    ids.push((JSON.parse(res.text) as { id: string }).id);
  }
  // No trial cap in the way of an intake a second.
  await withClient(databaseUrl, (c) =>
    c.query(
      `update organizations set subscription_status = 'active', plan_type = 'professional',
         max_packages_per_month = -1 where id = any($1::uuid[])`,
      [ids],
    ),
  );
  return { orgs: ids.map((id) => ({ id, token: session! })), userId };
}

type Receipt = { fromCommit: number; fromSend?: number };

/** Holds one stream; every change event's delivery is recorded. */
function openStream(
  url: string,
  organizationId: string,
  token: string,
  receipts: Receipt[],
  sentAt: Map<string, number>,
  agent: http.Agent,
  /** Called when the server ends the stream. */
  onEnd?: () => void,
): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${url}/api/events?organizationId=${organizationId}`,
      { headers: { cookie: cookieHeader(token) }, agent },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        if (onEnd) res.once('end', onEnd);
        let pending = '';
        let ready = false;
        res.on('data', (chunk: string) => {
          const now = Date.now();
          pending += chunk;
          let cut: number;
          while ((cut = pending.indexOf('\n\n')) >= 0) {
            const block = pending.slice(0, cut);
            pending = pending.slice(cut + 2);
            if (!ready && block.includes('event: ready')) {
              ready = true;
              resolve(req);
            }
            if (!block.includes('event: change')) continue;
            const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as { at?: number; ids?: string[] };
            const sent = data.ids?.[0] ? sentAt.get(data.ids[0]) : undefined;
            receipts.push({
              fromCommit: now - (data.at ?? now),
              ...(sent !== undefined ? { fromSend: now - sent } : {}),
            });
          }
        });
      },
    );
    req.on('error', reject);
  });
}

/** An intake a second per organization, round robin, until stopped; answers the count and failures. */
function startIntakes(url: string, orgs: Org[], sentAt: Map<string, number>) {
  const perSecond = orgs.length * INTAKES_PER_ORG_PER_SECOND;
  let stopped = false;
  let sent = 0;
  let failed = 0;
  let behind = 0;
  let next = 0;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  const loop = (async () => {
    while (!stopped) {
      const due = started + (sent * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const org = orgs[next++ % orgs.length]!;
      sent += 1;
      // An instance that cannot keep up: the intake is counted as behind, not piled on it.
      if (inFlight.size >= MAX_INTAKES_IN_FLIGHT) {
        behind += 1;
        continue;
      }
      const tracking = crypto.randomUUID();
      const sendAt = Date.now();
      const p = post(
        url,
        '/api/mail-items',
        { type: 'letter', sender: 'Live bench', trackingNumber: tracking },
        { cookie: cookieHeader(org.token), [ORGANIZATION_HEADER]: org.id },
      )
        .then((res) => {
          if (res.status !== 201) failed += 1;
          else sentAt.set((JSON.parse(res.text) as { id: string }).id, sendAt);
        })
        // A reset connection (the machine overloaded) is a failed intake, reported, not a crash.
        .catch(() => {
          failed += 1;
        });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
  })();
  return {
    perSecond,
    get sent() {
      return sent;
    },
    get failed() {
      return failed;
    },
    /** Not sent: MAX_INTAKES_IN_FLIGHT were still waiting for their answers. */
    get behind() {
      return behind;
    },
    async stop() {
      stopped = true;
      await loop;
      await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * The same two runs with and without streams: intakes alone for QUIET_SECONDS (a desk at work:
 * delivery as a desk sees it), then Mail Intake read as fast as 20 connections go beside them
 * (the instance saturated): its throughput, and delivery meanwhile.
 */
async function phases(
  url: string,
  orgs: Org[],
  sentAt: Map<string, number>,
  receipts: Receipt[],
  target: Parameters<typeof measureEndpoint>[1],
  load: Parameters<typeof measureEndpoint>[3],
) {
  const intakes = startIntakes(url, orgs, sentAt);
  await sleep(1000);
  receipts.length = 0;
  await sleep(QUIET_SECONDS * 1000);
  const quiet = summarise(receipts);
  receipts.length = 0;
  const desk: LoadResult = await measureEndpoint(url, target, {}, load);
  await intakes.stop();
  await sleep(1000);
  return { quiet, busy: summarise(receipts), desk, intakes };
}

function summarise(receipts: Receipt[]) {
  const commit = receipts.map((r) => r.fromCommit).sort((a, b) => a - b);
  const send = receipts.flatMap((r) => (r.fromSend !== undefined ? [r.fromSend] : [])).sort((a, b) => a - b);
  return {
    count: receipts.length,
    commitP50: percentile(commit, 50),
    commitP99: percentile(commit, 99),
    sendP50: percentile(send, 50),
    sendP99: percentile(send, 99),
  };
}

/**
 * Issue 41's probe: one session opens ONE_SESSION_STREAMS streams of one organization, 50 at a time.
 * Answers the figures; a stream the server ended (`replaced`) is counted, not an error.
 */
async function probeOneSession(instance: { url: string; pid: number }, databaseUrl: string, org: Org) {
  const filesBefore = openFiles(instance.pid);
  log(`reading the transaction rate for ${RATE_SECONDS} s, no streams ...`);
  const rateBefore = await transactionsPerSecond(databaseUrl, RATE_SECONDS);
  log(`one session opens ${ONE_SESSION_STREAMS} streams ...`);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const streams: http.ClientRequest[] = [];
  let ended = 0;
  let refused = 0;
  for (let n = 0; n < ONE_SESSION_STREAMS; n += 50) {
    const batch = await Promise.allSettled(
      Array.from({ length: Math.min(50, ONE_SESSION_STREAMS - n) }, () =>
        openStream(instance.url, org.id, org.token, [], new Map(), agent, () => (ended += 1)),
      ),
    );
    for (const r of batch) {
      if (r.status === 'rejected') refused += 1;
      else streams.push(r.value);
    }
  }
  // PostgreSQL's backends report their counts up to 10 s late when busy: the opening's own
  // transactions must not land in the window.
  await sleep(15_000);
  const filesAfter = openFiles(instance.pid);
  log(`reading the transaction rate for ${RATE_SECONDS} s with the streams ...`);
  const rateAfter = await transactionsPerSecond(databaseUrl, RATE_SECONDS);
  const stillOpen = streams.length - ended;
  for (const req of streams) req.destroy();
  return { filesBefore, filesAfter, rateBefore, rateAfter, stillOpen, refused };
}

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    NOTIFICATIONS_WORKER: 'false',
    METRICS_TOKEN,
    REGISTER_RATE_LIMIT_IP: '100000',
    // The load run's one person holds every stream (a session each): its cap must not end them.
    // The probe keeps the shipped caps (decision 051), unless UNCAPPED=1 (as before them).
    ...(ONE_SESSION_STREAMS > 0
      ? process.env.UNCAPPED === '1'
        ? { LIVE_STREAMS_PER_SESSION: '1000', LIVE_STREAMS_PER_PERSON: '100000', LIVE_STREAMS_PER_INSTANCE: '1000000' }
        : {}
      : { LIVE_STREAMS_PER_PERSON: String(STREAMS), LIVE_STREAMS_PER_INSTANCE: String(Math.max(2000, STREAMS)) }),
    SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
  };
  const instance = await startInstance(env, 'A');
  log(`seeding ${ORGANIZATIONS} organizations ...`);
  const { orgs, userId } = await seed(instance.url, database.url);
  if (ONE_SESSION_STREAMS > 0) {
    const p = await probeOneSession(instance, database.url, orgs[0]!);
    console.log(`\nOne session opens ${ONE_SESSION_STREAMS} streams of one organization, on one idle instance.`);
    printTable(
      ['', 'before', `after ${ONE_SESSION_STREAMS} opened`],
      [
        ['streams still open', '0', String(p.stillOpen)],
        ['open files of the instance', String(p.filesBefore), String(p.filesAfter)],
        [`database transactions/s (${RATE_SECONDS} s)`, p.rateBefore.toFixed(1), p.rateAfter.toFixed(1)],
      ],
    );
    if (p.refused) console.log(`(${p.refused} streams were refused)`);
    return 0;
  }
  // A session per stream, as a thousand browsers would hold.
  const tokens = await createSessions(database.url, userId, STREAMS);
  const sentAt = new Map<string, number>();
  const deskTarget = {
    name: 'Mail Intake, 25 rows',
    path: '/api/mail-items?limit=25',
    headers: { cookie: cookieHeader(orgs[0]!.token), [ORGANIZATION_HEADER]: orgs[0]!.id },
  };
  const load = { connections: 20, warmUpSeconds: 2, measureSeconds: MEASURE_SECONDS };

  // Warm the instance (JIT, pool, plans) before its memory is read.
  log('warming up ...');
  const warmIntakes = startIntakes(instance.url, orgs, sentAt);
  await measureEndpoint(instance.url, deskTarget, {}, { ...load, measureSeconds: 2 });
  await warmIntakes.stop();
  const before = await memory(instance.pid, instance.url);

  log(`opening ${STREAMS} streams ...`);
  const receipts: Receipt[] = [];
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const streams: http.ClientRequest[] = [];
  for (let n = 0; n < STREAMS; n += 50) {
    streams.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, STREAMS - n) }, (_, i) =>
          openStream(instance.url, orgs[(n + i) % orgs.length]!.id, tokens[n + i]!, receipts, sentAt, agent),
        ),
      )),
    );
  }
  const open = await memory(instance.pid, instance.url);

  log(
    `intakes at ${orgs.length * INTAKES_PER_ORG_PER_SECOND}/s with ${STREAMS} streams open, then Mail Intake too ...`,
  );
  const withStreams = await phases(instance.url, orgs, sentAt, receipts, deskTarget, load);
  const during = { rss: rssBytes(instance.pid), heap: await heapUsedBytes(instance.url) };

  log('closing the streams; the same runs without them ...');
  for (const req of streams) req.destroy();
  await sleep(2000);
  const withoutStreams = await phases(instance.url, orgs, sentAt, [], deskTarget, load);
  const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
  const perStream = (a: number, b: number) => `${((b - a) / STREAMS / 1024).toFixed(1)} KB`;
  console.log(
    `\nLive desk streams on one instance: ${STREAMS} streams over ${orgs.length} organizations, ` +
      `${orgs.length * INTAKES_PER_ORG_PER_SECOND} intakes/s (${INTAKES_PER_ORG_PER_SECOND}/s per organization), ` +
      `${os.cpus().length} CPUs shared by the instance, PostgreSQL (${database.label}) and this client.`,
  );
  printTable(
    ['memory of the instance', 'RSS MB', 'V8 heap MB'],
    [
      ['before the streams (warmed up)', mb(before.rss), mb(before.heap)],
      [`${STREAMS} streams open, idle`, mb(open.rss), mb(open.heap)],
      ['the same after the loaded run', mb(during.rss), mb(during.heap)],
      ['per stream (open, idle)', perStream(before.rss, open.rss), perStream(before.heap, open.heap)],
    ],
  );
  console.log('');
  const w = withStreams;
  printTable(
    ['event delivery (with the streams)', 'events received', 'p50 ms', 'p99 ms'],
    [
      ['intakes only: commit -> received', w.quiet.count, w.quiet.commitP50, w.quiet.commitP99],
      ['intakes only: POST sent -> received', w.quiet.count, w.quiet.sendP50, w.quiet.sendP99],
      ['Mail Intake saturated too: commit -> received', w.busy.count, w.busy.commitP50, w.busy.commitP99],
      ['Mail Intake saturated too: POST sent -> received', w.busy.count, w.busy.sendP50, w.busy.sendP99],
    ].map((cells) => cells.map(String)),
  );
  console.log('');
  const row = (label: string, r: Awaited<ReturnType<typeof phases>>) => [
    label,
    r.desk.requestsPerSecond.toFixed(0),
    r.desk.p50.toFixed(1),
    r.desk.p99.toFixed(1),
    String(r.desk.non2xx + r.desk.errors),
    `${r.intakes.sent - r.intakes.behind} sent, ${r.intakes.behind} behind, ${r.intakes.failed} failed`,
  ];
  printTable(
    ['Mail Intake, 20 connections, beside the intakes', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'intakes'],
    [row(`with ${STREAMS} streams`, withStreams), row('without streams', withoutStreams)],
  );
  console.log(
    `\n(each intake reaches the ${STREAMS / orgs.length} streams of its organization; "behind": not sent, ` +
      `${MAX_INTAKES_IN_FLIGHT} were still unanswered.)`,
  );
  const failed = (r: typeof withStreams) => r.desk.non2xx + r.desk.errors + r.intakes.failed;
  return failed(withStreams) + failed(withoutStreams) > 0 ? 1 : 0;
}

runBenchmark(main, 600_000);
