/**
 * `npm run faults [-- --duration=60 --concurrency=8 --down=2]`: issue 27's fault scenario (decision 039).
 *
 * A PostgreSQL 15 cluster made for the run (never the machine's main one), three instances of the
 * server as child processes (`node --import tsx src/server/main.ts`, as `npm start` runs it on an
 * external database) behind Debian's nginx running deploy/nginx.conf, and the front desk's mixed
 * load through nginx (intake with tracking numbers of their own, Pending Pickups, status changes,
 * the dashboard) for the duration. At a third of it PostgreSQL is restarted (fast shutdown, `--down`
 * seconds stopped, started again); at two thirds one instance is killed with SIGKILL. Afterwards every intake
 * answered 201 is looked up in the database: lost and duplicated writes must both be 0 (the exit
 * code says whether they were).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { countWrites, runMixedLoad, signUpDesk, summarize, type Outcome } from '../src/server/test/mixed-load';
import { nginxMissing, startNginx } from '../src/server/test/nginx';
import { canMakeClusters, createCluster, freePort } from '../src/server/test/pg-cluster';

const root = fileURLToPath(new URL('..', import.meta.url));
const flag = (name: string, fallback: number) => {
  const given = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = given ? Number(given.split('=')[1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};
const durationMs = flag('duration', 60) * 1000;
const concurrency = flag('concurrency', 8);
/** How long PostgreSQL stays stopped before it is started again (a bare restart takes ~0.5 s). */
const downMs = flag('down', 2) * 1000;

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const countBy = (keys: string[]) => {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
};

type Instance = { port: number; child: ChildProcess; output: () => string };

async function startInstance(env: Record<string, string>, dataDir: string): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; !output.includes('is running at'); i += 1) {
    if (child.exitCode !== null || i > 1200) throw new Error(`instance on ${port} did not start:\n${output}`);
    await sleep(100);
  }
  return { port, child, output: () => output };
}

async function main() {
  const missing = nginxMissing();
  if (missing) throw new Error(missing);
  if (!(await canMakeClusters())) throw new Error('PostgreSQL binaries not found (PG_BIN)');

  say(`faults: ${durationMs / 1000} s of mixed load, ${concurrency} clients, through nginx to 3 instances`);
  const cluster = await createCluster({ synchronous_commit: 'on' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pigeonhole-faults-'));
  const instances: Instance[] = [];
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  try {
    const nginxPort = await freePort();
    const env = {
      NODE_ENV: 'production',
      APP_URL: `http://127.0.0.1:${nginxPort}`,
      HOST: '127.0.0.1',
      DATABASE_URL: cluster.url(),
      SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      REGISTER_RATE_LIMIT_IP: '100000',
      STATISTICS_CHECK_SECONDS: '0',
    };
    // The first runs the migrations; the others start on a migrated database.
    instances.push(await startInstance(env, dataDir));
    instances.push(...(await Promise.all([startInstance(env, dataDir), startInstance(env, dataDir)])));
    nginx = await startNginx({ upstreams: instances.map((i) => `127.0.0.1:${i.port}`), port: nginxPort });
    say(
      `  instances on ${instances.map((i) => i.port).join(', ')}; nginx on ${nginx.port}; PostgreSQL on ${cluster.port}`,
    );

    const tag = `faults${Date.now()}`;
    const desk = await signUpDesk(nginx.url, tag);
    // A minute of intake is more than a plan's monthly packages (402 past it): the limit is not the subject.
    const owner = new pg.Client({ connectionString: cluster.url() });
    await owner.connect();
    await owner.query('update organizations set max_packages_per_month = 10000000 where id = $1', [
      desk.organizationId,
    ]);
    await owner.end();
    let done = false;
    const load = runMixedLoad(desk, { concurrency, stop: () => done, tag });
    const startedAt = Date.now();
    const at = (fraction: number) => sleep(Math.max(0, startedAt + durationMs * fraction - Date.now()));

    await at(1 / 3);
    const downAt = Date.now();
    await cluster.stop();
    await sleep(downMs);
    await cluster.start();
    const upAt = Date.now();
    say(`  PostgreSQL restarted at ${((downAt - startedAt) / 1000).toFixed(1)} s, down ${upAt - downAt} ms`);

    await at(2 / 3);
    const killedAt = Date.now();
    const victim = instances[1]!;
    victim.child.kill('SIGKILL');
    say(`  instance on ${victim.port} killed (SIGKILL) at ${((killedAt - startedAt) / 1000).toFixed(1)} s`);

    await at(1);
    done = true;
    const result = await load;
    const rel = (t: number) => t - result.startedAt;
    const ok = (o: Outcome) => o.status >= 200 && o.status < 300;
    const firstOkAfterUp = result.outcomes.find((o) => o.at >= rel(upAt) && ok(o));
    const duringOutage = result.outcomes.filter((o) => o.at >= rel(downAt) && o.at < rel(upAt));
    const afterKill = result.outcomes.filter((o) => o.at >= rel(killedAt));
    const s = summarize(result.outcomes);
    const counted = await countWrites(cluster.url(), result, tag);

    say('');
    say(`  requests                  ${s.requests}`);
    say(`  2xx                       ${s.ok}`);
    say(`  503 (Retry-After)         ${s.unavailable - s.unavailableWithoutRetryAfter}`);
    say(`  503 without Retry-After   ${s.unavailableWithoutRetryAfter}`);
    say(`  other answers             ${JSON.stringify(s.other)}`);
    say(`  no answer                 ${s.noAnswer}`);
    say(`  writes answered 2xx       ${result.written.length} intakes, ${result.statusChanged.length} status changes`);
    say(`  lost                      ${counted.lost.length} (0 expected)`);
    say(
      `  duplicated                ${counted.duplicated.length} intakes, ${counted.statusTwice} status changes (0 expected)`,
    );
    say(`  applied, not answered 2xx ${counted.appliedUnanswered} (cut off between commit and reply: allowed, once)`);
    say(`  PostgreSQL down           ${upAt - downAt} ms (pg_ctl stop -m fast, ${downMs} ms stopped, start)`);
    say(
      `  recovered                 ${firstOkAfterUp ? `${firstOkAfterUp.at - rel(upAt)} ms after PostgreSQL was back` : 'never'}`,
    );
    say(
      `  during the restart        ${duringOutage.length} requests: ${duringOutage.filter((o) => o.status === 503).length} answered 503`,
    );
    const killErrors = afterKill.filter((o) => !ok(o) && o.status !== 503);
    say(
      `  after the kill            ${afterKill.length} requests, ${afterKill.filter(ok).length} 2xx, ${killErrors.length} errors ` +
        `(${JSON.stringify(Object.fromEntries(countBy(killErrors.map((o) => `${o.kind} ${o.status || 'no answer'}`))))})`,
    );
    if (counted.lost.length > 0 || counted.duplicated.length > 0 || counted.statusTwice > 0) process.exitCode = 1;
  } finally {
    for (const i of instances) if (i.child.exitCode === null && i.child.signalCode === null) i.child.kill('SIGTERM');
    await Promise.all(
      instances.map((i) =>
        i.child.exitCode === null && i.child.signalCode === null ? new Promise((r) => i.child.once('exit', r)) : null,
      ),
    );
    await nginx?.stop();
    await cluster.destroy();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
