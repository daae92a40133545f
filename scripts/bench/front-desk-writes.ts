/**
 * The front desk's writes under load, shared by the front-desk benches: intake (POST) and status
 * changes (PUT) in the signed-in organization, each checked afterwards against the rows written.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { accountHeaders, type Account } from './harness';
import type { FrontDeskSeed } from './front-desk-seed';
import { LOAD_WORKERS, workerShareSource, type LoadResult, type LoadTarget, type Run } from './load';
import type { Observation } from './observe';

export type Kind = 'read' | 'write';
export type Measured = LoadResult & { kind: Kind; observed: Observation; note?: string };
export type Measure = (target: LoadTarget, kind: Kind) => Promise<Measured>;

/** The big organization's pending items as seeded: the PUT requests cycle through them. */
export async function pendingItemIds(databaseUrl: string, organizationId: string): Promise<string[]> {
  return withClient(databaseUrl, async (client) =>
    (
      await client.query<{ id: string }>(
        `select id from mail_items where organization_id = $1 and status = 'pending' order by id`,
        [organizationId],
      )
    ).rows.map((r) => r.id),
  );
}

/**
 * POST /api/mail-items: a package for one of the organization's recipients on one of its shelves,
 * a new UPS-style tracking number and a sender on every request.
 */
export async function measureCreate(
  measure: Measure,
  dataDir: string,
  databaseUrl: string,
  account: Account,
  seed: FrontDeskSeed,
): Promise<Measured> {
  const countItems = () =>
    scalar(databaseUrl, `select count(*)::int n from mail_items where organization_id = $1`, [account.organizationId]);
  let before = 0;
  const setupRequest = async (run: Run) => {
    if (run === 'measured') before = await countItems();
    const tag = run === 'measured' ? 'M' : 'W';
    return writeModule(
      dataDir,
      `post-${run}`,
      `${workerShareSource}
const recipients = ${JSON.stringify(seed.recipientIds)};
const locations = ${JSON.stringify(seed.locationIds)};
const senders = ['Amazon', 'Apple', 'Zappos', 'Chewy', 'Best Buy', 'Target', 'Etsy'];
let n = 0;
module.exports = function setupRequest(request) {
  const i = n++;
  request.body = JSON.stringify({
    type: 'package',
    recipientId: recipients[(i * 7) % recipients.length],
    locationId: locations[i % locations.length],
    trackingNumber: '1ZBENCH${tag}' + workerShare + String(i).padStart(8, '0'),
    sender: senders[i % senders.length],
  });
  return request;
};`,
    );
  };
  const result = await measure(
    {
      name: 'POST /api/mail-items',
      path: '/api/mail-items',
      method: 'POST',
      headers: { ...accountHeaders(account), 'content-type': 'application/json' },
      setupRequest,
    },
    'write',
  );
  const created = (await countItems()) - before;
  return { ...result, note: `${created} items written for ${result.requests} answers` };
}

/**
 * PUT /api/mail-items/{id}: cycles through the pending items of the big organization, each
 * request moving one to notified or back to pending. Before each run the module is written with
 * every item's status at that moment, so that every request of the run really changes a status
 * (a pass through the pool, over 1,000 items, outlasts the 50 requests in flight).
 */
export async function measureStatusChange(
  measure: Measure,
  dataDir: string,
  databaseUrl: string,
  account: Account,
  pool: string[],
): Promise<Measured> {
  const countChanges = () =>
    scalar(
      databaseUrl,
      `select count(*)::int n from mail_item_history
       where organization_id = $1 and action in ('notified', 'status_changed') and mail_item_id = any($2::uuid[])`,
      [account.organizationId, pool],
    );
  let before = 0;
  const setupRequest = async (run: Run) => {
    if (run === 'measured') before = await countChanges();
    const statuses = await withClient(databaseUrl, async (client) => {
      const rows = (
        await client.query<{ id: string; status: string }>(
          `select id, status from mail_items where organization_id = $1 and id = any($2::uuid[])`,
          [account.organizationId, pool],
        )
      ).rows;
      const byId = new Map(rows.map((r) => [r.id, r.status]));
      return pool.map((id) => byId.get(id) ?? 'pending');
    });
    return writeModule(
      dataDir,
      `put-${run}`,
      `${workerShareSource}
// Each worker takes every other item of the pool, so no two requests race for one item.
const ids = ${JSON.stringify(pool)}.filter((_, i) => i % ${LOAD_WORKERS} === workerShare);
const now = ${JSON.stringify(statuses)}.filter((_, i) => i % ${LOAD_WORKERS} === workerShare);
const flip = (s) => (s === 'notified' ? 'pending' : 'notified');
let n = 0;
module.exports = function setupRequest(request) {
  const i = n++;
  const k = i % ids.length;
  // Odd passes through the pool undo the even ones.
  const status = Math.floor(i / ids.length) % 2 === 0 ? flip(now[k]) : now[k];
  request.path = '/api/mail-items/' + ids[k];
  request.body = JSON.stringify({ status });
  return request;
};`,
    );
  };
  const result = await measure(
    {
      name: 'PUT /api/mail-items/{id} status',
      path: '/api/mail-items/',
      method: 'PUT',
      headers: { ...accountHeaders(account), 'content-type': 'application/json' },
      setupRequest,
    },
    'write',
  );
  const changes = (await countChanges()) - before;
  return {
    ...result,
    note: `${changes} status changes recorded for ${result.requests} answers (pool of ${pool.length} items)`,
  };
}

/** autocannon's workers take setupRequest as a CommonJS file to require; one file per run. */
async function writeModule(dataDir: string, name: string, body: string): Promise<string> {
  const file = path.join(dataDir, `setup-${name}.cjs`);
  await fs.writeFile(file, `'use strict';\n${body}\n`);
  return file;
}

export async function withClient<T>(databaseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export const scalar = (databaseUrl: string, statement: string, params: unknown[]) =>
  withClient(databaseUrl, async (client) => (await client.query<{ n: number }>(statement, params)).rows[0]!.n);

/** Autovacuum off for every table of the run: the bench decides when statistics and the visibility map appear. */
export function disableAutovacuum(databaseUrl: string) {
  return withClient(databaseUrl, (c) =>
    c.query(`do $$ declare t text; begin
               for t in select tablename from pg_tables where schemaname = 'public' loop
                 execute format('alter table %I set (autovacuum_enabled = false)', t);
               end loop; end $$`),
  );
}
