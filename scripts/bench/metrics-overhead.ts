// `npm run bench:metrics`: what the metrics cost per request (decision 036). Two built servers
// (`npm run build` first) on one fresh database, one with METRICS_TOKEN (the onResponse hook
// counting every request) and one without, are loaded in turn on the cheapest route
// (GET /api/health, where the hook's share is largest) and on a 404; then a scrape is timed.
// DATABASE_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) names a server where
// a database may be created and dropped.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import getPort from 'get-port';
import pg from 'pg';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const adminUrl = process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);
const token = crypto.randomBytes(24).toString('hex');
const dbName = `bench_metrics_${crypto.randomBytes(4).toString('hex')}`;

async function admin(text: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

async function start(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await getPort({ host: '127.0.0.1' });
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const child = spawn(process.execPath, ['dist/server/main.mjs'], {
    cwd: rootDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APP_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      DATABASE_URL: u.toString(),
      LOG_LEVEL: 'warn',
      NOTIFICATIONS_WORKER: 'false',
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      ...env,
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i += 1) {
    if ((await fetch(`${url}/api/ready`).catch(() => undefined))?.status === 200) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not get ready');
}

async function load(url: string) {
  const r = await autocannon({ url, connections: 20, duration: SECONDS });
  return { rps: r.requests.average, p99: r.latency.p99 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await admin(`create database ${dbName}`);
const servers: ChildProcess[] = [];
try {
  // One after the other: both migrate the same database, and only one runs the migrations.
  const off = await start({});
  servers.push(off.child);
  const on = await start({ METRICS_TOKEN: token });
  servers.push(on.child);
  for (const path of ['/api/health', '/api/no-such-route']) {
    const results: Record<'off' | 'on', { rps: number; p99: number }[]> = { off: [], on: [] };
    await load(`${off.url}${path}`); // warm-up of both
    await load(`${on.url}${path}`);
    for (let i = 0; i < ROUNDS; i += 1) {
      results.off.push(await load(`${off.url}${path}`));
      results.on.push(await load(`${on.url}${path}`));
    }
    const rpsOff = median(results.off.map((r) => r.rps));
    const rpsOn = median(results.on.map((r) => r.rps));
    const usOff = 1e6 / rpsOff;
    const usOn = 1e6 / rpsOn;
    console.log(
      `GET ${path}: metrics off ${rpsOff.toFixed(0)} req/s (p99 ${median(results.off.map((r) => r.p99))} ms), ` +
        `on ${rpsOn.toFixed(0)} req/s (p99 ${median(results.on.map((r) => r.p99))} ms): ` +
        `${(usOn - usOff).toFixed(1)} µs more per request of the server's time (${(((rpsOff - rpsOn) / rpsOff) * 100).toFixed(1)}%)`,
    );
  }
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < 20; i += 1) {
    const t0 = performance.now();
    const res = await fetch(`${on.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    size = (await res.text()).length;
    times.push(performance.now() - t0);
  }
  console.log(`GET /metrics: median ${median(times).toFixed(1)} ms, ${(size / 1024).toFixed(0)} KB`);
} finally {
  for (const child of servers) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  await admin(`drop database if exists ${dbName} with (force)`);
}
