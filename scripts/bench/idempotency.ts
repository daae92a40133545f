/**
 * What an Idempotency-Key costs an intake (decision 044): POST /api/mail-items with no key (the
 * batched statement shared by concurrent requests), with a fresh key on every request (a
 * transaction of its own that also stores the answer), and the same request repeated under one
 * key (the replay: one read). The app sends a key with every intake, so the second row is the
 * desk's own cost. Timing never fails the run; a non-2xx answer or an error does (exit 1).
 *
 *   npx tsx scripts/bench/idempotency.ts          (DATABASE_URL=… to run on another PostgreSQL)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { withClient } from './front-desk-writes';
import {
  accountHeaders,
  log,
  makeDataDir,
  printTable,
  provisionDatabase,
  runBenchmark,
  signUp,
  startBenchServer,
} from './harness';
import { measureEndpoint, workerShareSource, type LoadOptions, type LoadResult, type Run } from './load';

const LOADS: LoadOptions[] = [
  { connections: 20, warmUpSeconds: 2, measureSeconds: 8 },
  { connections: 1, warmUpSeconds: 2, measureSeconds: 8 },
];

async function main(): Promise<number> {
  const dataDir = await makeDataDir();
  const database = await provisionDatabase(dataDir);
  process.env.NOTIFICATIONS_WORKER = process.env.NOTIFICATIONS_WORKER ?? 'false';
  const server = await startBenchServer(dataDir, database, { CACHE_TTL_MS: '0' });
  const account = await signUp(server.url);
  const recipientIds = await withClient(database.url, async (c) => {
    // An unlimited plan: a trial's or a capped plan's intakes are counted under a lock instead.
    await c.query(
      `update organizations set plan_type = 'professional', subscription_status = 'active',
         max_packages_per_month = -1, max_users = 100 where id = $1`,
      [account.organizationId],
    );
    const { rows } = await c.query<{ id: string }>(
      `insert into recipients (organization_id, first_name, last_name)
       select $1, 'Bench', 'Recipient ' || n from generate_series(1, 50) n returning id`,
      [account.organizationId],
    );
    return rows.map((r) => r.id);
  });
  const headers = { ...accountHeaders(account), 'content-type': 'application/json' };

  let round = 0;
  const module = (keyed: 'none' | 'fresh' | 'same') => async (run: Run) => {
    const tag = `${keyed}${round++}${run === 'measured' ? 'M' : 'W'}`;
    const file = path.join(dataDir, `setup-idempotency-${tag}.cjs`);
    await fs.writeFile(
      file,
      `'use strict';
${workerShareSource}
const recipients = ${JSON.stringify(recipientIds)};
let n = 0;
module.exports = function setupRequest(request) {
  const i = ${keyed === 'same' ? '0' : 'n++'};
  request.body = JSON.stringify({
    type: 'package',
    recipientId: recipients[i % recipients.length],
    trackingNumber: '1ZIDEM${tag}' + workerShare + String(i).padStart(8, '0'),
  });
  ${keyed === 'none' ? '' : `request.headers = { ...request.headers, 'idempotency-key': '${tag}-' + workerShare + '-' + i };`}
  return request;
};`,
    );
    return file;
  };

  const rows: Array<LoadResult & { what: string; connections: number }> = [];
  for (const load of LOADS) {
    for (const [what, keyed] of [
      ['no key (batched)', 'none'],
      ['a fresh key each', 'fresh'],
      ['one key repeated (replays)', 'same'],
    ] as const) {
      log(`load: ${what}, ${load.connections} connections ...`);
      const target = {
        name: what,
        path: '/api/mail-items',
        method: 'POST' as const,
        headers,
        setupRequest: module(keyed),
      };
      rows.push({ what, connections: load.connections!, ...(await measureEndpoint(server.url, target, {}, load)) });
    }
  }
  console.log(`\nPOST /api/mail-items with and without Idempotency-Key; 8 s a run. ${os.cpus().length} CPUs.`);
  printTable(
    ['intake', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'errors (by status)'],
    rows.map((r) => [
      r.what,
      String(r.connections),
      r.requestsPerSecond.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      `${r.non2xx + r.errors}${r.non2xx ? ` ${JSON.stringify(r.statusCodes)}` : ''}`,
    ]),
  );
  return rows.some((r) => r.non2xx > 0 || r.errors > 0) ? 1 : 0;
}

runBenchmark(main, 300_000);
