/**
 * What a hand-over's signature costs the server (issue 41, item 4; decision 050): 20 hand-overs
 * sent at once, each with a signature PNG, to a server started in this process (so its event loop
 * is this one's), while
 *
 * - perf_hooks' monitorEventLoopDelay (10 ms resolution) records how late the event loop ran: its
 *   worst delay is what any other request of the instance waited behind the signatures;
 * - GET /api/health is asked one after another the whole time: its slowest answer is that wait as
 *   a caller meets it.
 *
 * Two signatures: the probe's (a 4000 x 4000 PNG of a few strokes, about 60 KB, which the server
 * allowed before decision 050) and the worst the server allows now (SIGNATURE_MAX_WIDTH x
 * SIGNATURE_MAX_HEIGHT of the contract, the same strokes). Each round uses an organization of its
 * own, so the signature rate per organization never refuses the 20. ROUNDS=2 by default.
 * Timing never fails the run; an error does (exit 1).
 *
 *   npm run bench:signatures          (DATABASE_URL=… to run on another PostgreSQL)
 *
 * On 2 CPUs shared with PostgreSQL the figures are those of a crowded machine.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import sharp from 'sharp';
import * as contract from '../../src/contract';
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

const PARALLEL = 20;
const ROUNDS = Number(process.env.ROUNDS ?? 2);
/** Before decision 050 the server took up to 4000 px a side; the contract's bound since. */
const bound = contract as unknown as { SIGNATURE_MAX_WIDTH?: number; SIGNATURE_MAX_HEIGHT?: number };
const ALLOWED = { width: bound.SIGNATURE_MAX_WIDTH ?? 4000, height: bound.SIGNATURE_MAX_HEIGHT ?? 4000 };

/** Strokes across the whole image on a transparent background, as a canvas draws them. */
async function signaturePng(width: number, height: number): Promise<string> {
  const strokes: string[] = [];
  for (let n = 0; n < 12; n += 1) {
    const y = ((n + 1) * height) / 13;
    strokes.push(
      `<path d="M${width * 0.02} ${y} C ${width * 0.3} ${y - height * 0.08}, ${width * 0.6} ${y + height * 0.08}, ` +
        `${width * 0.98} ${y}" stroke="#111" stroke-width="${Math.max(3, Math.round(width / 800))}" fill="none"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${strokes.join('')}</svg>`;
  const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

async function call(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, text: await res.text() };
}

/** An organization of the account's with one recipient and PARALLEL items waiting for them. */
async function desk(url: string, account: Account, name: string) {
  const created = await call(
    url,
    'POST',
    '/api/organizations',
    { cookie: cookieHeader(account.sessionToken) },
    { name },
  );
  if (created.status !== 201) throw new Error(`organization: ${created.status} ${created.text}`);
  const headers = accountHeaders({ ...account, organizationId: (JSON.parse(created.text) as { id: string }).id });
  const recipient = await call(url, 'POST', '/api/recipients', headers, { firstName: 'Noor', lastName: 'Haddad' });
  if (recipient.status !== 201) throw new Error(`recipient: ${recipient.status} ${recipient.text}`);
  const recipientId = (JSON.parse(recipient.text) as { id: string }).id;
  const items: string[] = [];
  for (let n = 0; n < PARALLEL; n += 1) {
    const item = await call(url, 'POST', '/api/mail-items', headers, { type: 'package', recipientId });
    if (item.status !== 201) throw new Error(`item: ${item.status} ${item.text}`);
    items.push((JSON.parse(item.text) as { id: string }).id);
  }
  return { headers, items };
}

type Round = {
  statuses: Map<number, number>;
  wallMs: number;
  loopMaxMs: number;
  loopP99Ms: number;
  healthMaxMs: number;
  healthCalls: number;
};

/** PARALLEL hand-overs with `signature` at once, the event loop and /api/health watched meanwhile. */
async function round(url: string, account: Account, name: string, signature: string): Promise<Round> {
  const { headers, items } = await desk(url, account, name);
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let watching = true;
  let healthMaxMs = 0;
  let healthCalls = 0;
  const health = (async () => {
    while (watching) {
      const started = performance.now();
      const res = await fetch(`${url}/api/health`);
      await res.arrayBuffer();
      healthMaxMs = Math.max(healthMaxMs, performance.now() - started);
      healthCalls += 1;
    }
  })();
  await new Promise((r) => setTimeout(r, 200));
  histogram.enable();
  const started = performance.now();
  const answers = await Promise.all(
    items.map((id) =>
      call(url, 'POST', '/api/handovers', headers, {
        itemIds: [id],
        collectorName: 'Noor Haddad',
        identifiedBy: 'id_checked',
        signatureData: signature,
      }),
    ),
  );
  const wallMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 100));
  histogram.disable();
  watching = false;
  await health;
  const statuses = new Map<number, number>();
  for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
  // 400 (refused by its size), 429 (the organization's rate) and 503 (the database pool's wait ran
  // out while the loop was blocked) are figures of the run; anything else is a failure.
  const odd = answers.find((a) => ![201, 400, 429, 503].includes(a.status));
  if (odd) throw new Error(`a hand-over answered ${odd.status}: ${odd.text}`);
  return {
    statuses,
    wallMs,
    loopMaxMs: histogram.max / 1e6,
    loopP99Ms: histogram.percentile(99) / 1e6,
    healthMaxMs,
    healthCalls,
  };
}

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  process.env.NOTIFICATIONS_WORKER = process.env.NOTIFICATIONS_WORKER ?? 'false';
  const server = await startBenchServer(dataDir, database);
  const account = await signUp(server.url);

  const signatures = [
    { what: "probe's 4000x4000", png: await signaturePng(4000, 4000) },
    {
      what: `worst allowed ${ALLOWED.width}x${ALLOWED.height}`,
      png: await signaturePng(ALLOWED.width, ALLOWED.height),
    },
  ];
  const rows: string[][] = [];
  let org = 0;
  for (const { what, png } of signatures) {
    const kb = Math.round((png.length * 3) / 4 / 1024);
    for (let r = 1; r <= ROUNDS; r += 1) {
      log(`${what} (${kb} KB), round ${r} ...`);
      const m = await round(server.url, account, `Signature bench ${(org += 1)}`, png);
      rows.push([
        `${what} (${kb} KB)`,
        String(r),
        [...m.statuses].map(([s, n]) => `${n}x${s}`).join(' '),
        m.wallMs.toFixed(0),
        m.loopMaxMs.toFixed(1),
        m.loopP99Ms.toFixed(1),
        m.healthMaxMs.toFixed(1),
        String(m.healthCalls),
      ]);
    }
  }
  console.log(`\n${PARALLEL} hand-overs with a signature at once; ${os.cpus().length} CPUs, node ${process.version}\n`);
  printTable(
    [
      'signature',
      'round',
      'answers',
      'all answered ms',
      'event loop max ms',
      'event loop p99 ms',
      '/api/health max ms',
      'health calls',
    ],
    rows,
  );
  return 0;
}

runBenchmark(main, 15 * 60_000);
