import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from './config';
import { startServer } from './server';
import { adminQuery, adminRows, withDatabase } from './test/global-setup';
import { sql } from 'drizzle-orm';
import { connectDatabase } from './db/client';
import { mailItems } from './db/schema';
import { withTenants } from './db/tenant-scope';
import { Client, createSecondInstance, createTestApp, deskWithRecipient, type TestApp } from './test/harness';
import { atFileEnd } from './test/file-cleanups';
import { hasPgBouncer, PGBOUNCER_BIN, startPgBouncer, type PgBouncer } from './test/pgbouncer';
import { handedOver } from './test/hand-over';

/**
 * The whole app through Debian's PgBouncer in transaction mode (DATABASE_POOLER=transaction,
 * decision 038), with 4 server connections for two instances' pools of 5: a server connection
 * serves whichever client's transaction comes next, so nothing may rely on what a connection
 * was given before (a role, a setting, a prepared statement).
 */
const installed = await hasPgBouncer();
const ROUNDS = 15;

describe.skipIf(!installed)('through PgBouncer in transaction mode', () => {
  let bouncer: PgBouncer;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    bouncer = await startPgBouncer(inject('adminUrl'), { poolSize: 4 });
    // Filed before the apps' own cleanup, so run after it (newest first): their pools close first.
    atFileEnd(() => bouncer.stop());
    a = await createTestApp({ DATABASE_POOLER: 'transaction' }, { poolUrl: (url) => bouncer.urlFor(url) });
    b = await createSecondInstance(a);
  });

  it("every transaction acts as the application's role with the planner settings, on shared server connections", async () => {
    expect(a.poolUrl).toContain(`:${bouncer.port}/`);
    const { org } = await deskWithRecipient(a);
    // More at once than PgBouncer has server connections: each lands on whichever is free.
    const rows = await Promise.all(
      Array.from({ length: 40 }, () =>
        withTenants([org.id], () =>
          a.pool.query<{ who: string; cost: string; scope: string }>(
            `select current_user as who, current_setting('random_page_cost') as cost,
                    current_setting('pigeonhole.organization_ids', true) as scope, pg_sleep(0.01)`,
          ),
        ),
      ),
    );
    expect(new Set(rows.map((r) => r.rows[0]!.who))).toEqual(new Set(['pigeonhole_app']));
    expect(new Set(rows.map((r) => r.rows[0]!.cost))).toEqual(new Set(['1.1']));
    expect(new Set(rows.map((r) => r.rows[0]!.scope))).toEqual(new Set([org.id]));
    // Unscoped (platform) statements take the role too.
    const platform = await Promise.all(
      Array.from({ length: 12 }, () => a.pool.query<{ who: string }>('select current_user as who')),
    );
    expect(new Set(platform.map((r) => r.rows[0]!.who))).toEqual(new Set(['pigeonhole_app']));
    const servers = (await bouncer.show('servers')).filter((s) => s.database === new URL(a.url).pathname.slice(1));
    expect(servers.length).toBeGreaterThan(0);
    expect(servers.length).toBeLessThanOrEqual(4);
  });

  it('a desk journey: log items, Mail Intake and Pending Pickups (prepared statements), pick up, History', async () => {
    const { admin, recipient } = await deskWithRecipient(a);
    const ids: string[] = [];
    for (let n = 1; n <= 8; n += 1) {
      const res = await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json<{ id: string }>().id);
      // The same list statement, more than five times (a generic plan would be kept if prepared).
      const list = await admin.get('/api/mail-items');
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json()).toHaveLength(n);
    }
    const pending = '/api/mail-items?status=pending,notified';
    for (const [n, id] of ids.entries()) {
      expect((await admin.get(pending)).json()).toHaveLength(ids.length - n);
      await handedOver(admin, id, { collectorName: 'Ada' });
    }
    expect((await admin.get(pending)).json()).toHaveLength(0);
    const history = await admin.get('/api/history');
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json()).toHaveLength(ids.length);
    expect((await admin.get('/api/history/stats')).json()).toMatchObject({ totalItems: 8, delivered: 8 });
  });

  it("another organization's item answers 404, and row-level security still hides it", async () => {
    const first = await deskWithRecipient(a);
    const item = (await first.admin.post('/api/mail-items', { type: 'letter', recipientId: first.recipient.id })).json<{
      id: string;
    }>();
    const second = await deskWithRecipient(b);
    const own = (
      await second.admin.post('/api/mail-items', { type: 'letter', recipientId: second.recipient.id })
    ).json<{ id: string }>();
    const res = await second.admin.get(`/api/mail-items/${item.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    // A statement without any organization filter, scoped to the second organization, repeated
    // so that it runs on every server connection: the first organization's item never shows.
    for (let i = 0; i < 12; i += 1) {
      // (awaited inside: Drizzle's builder runs when awaited, and the scope is the caller's then)
      const rows = await withTenants([second.org.id], async () =>
        a.db
          .select({ id: mailItems.id })
          .from(mailItems)
          .where(sql`true`),
      );
      expect(rows.map((r) => r.id)).toEqual([own.id]);
      expect(rows.map((r) => r.id)).not.toContain(item.id);
    }
    const owner = await a.asOwner<{ n: string }>(`select count(*) as n from mail_items where id = '${item.id}'`);
    expect(owner[0]!.n).toBe('1');
  });

  it("two instances read each other's writes at once, every time", async () => {
    const { admin, recipient } = await deskWithRecipient(a);
    const onB = new Client(b);
    onB.cookie = admin.cookie;
    onB.organizationId = admin.organizationId;
    for (let n = 1; n <= ROUNDS; n += 1) {
      const [writer, reader] = n % 2 ? [admin, onB] : [onB, admin];
      expect((await writer.post('/api/mail-items', { type: 'letter', recipientId: recipient.id })).statusCode).toBe(
        201,
      );
      // Both read at once, each on its own instance.
      const [x, y] = await Promise.all([reader.get('/api/mail-items'), writer.get('/api/mail-items')]);
      expect(x.json()).toHaveLength(n);
      expect(y.json()).toHaveLength(n);
    }
  });

  it(
    'a whole server starts through it: migrations over the direct URL, the demo seed, sign-in, the desk',
    { timeout: 90_000 },
    async () => {
      const adminUrl = inject('adminUrl');
      const name = `pooled_${process.pid}_${Date.now()}`;
      await adminQuery(adminUrl, `create database ${name}`);
      const direct = withDatabase(adminUrl, name);
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pigeonhole-pooled-'));
      const env = {
        NODE_ENV: 'development',
        PORT: '0',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        DATABASE_URL: bouncer.urlFor(direct),
        DATABASE_POOLER: 'transaction',
        NOTIFICATIONS_WORKER: 'false',
      };
      try {
        expect(() => loadConfig(env, process.cwd())).toThrow(/DATABASE_LISTEN_URL: required/);
        const server = await startServer(loadConfig({ ...env, DATABASE_LISTEN_URL: direct }, process.cwd()));
        try {
          const login = await fetch(`${server.url}/api/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: server.demoLogin!.email, password: server.demoLogin!.password }),
          });
          expect(login.status).toBe(200);
          const cookie = login.headers
            .getSetCookie()
            .map((c) => c.split(';')[0])
            .join('; ');
          const orgs = (await (
            await fetch(`${server.url}/api/organizations`, { headers: { cookie } })
          ).json()) as Array<{
            id: string;
          }>;
          const headers = { cookie, 'x-organization-id': orgs[0]!.id };
          for (let i = 0; i < 8; i += 1) {
            const list = await fetch(`${server.url}/api/mail-items`, { headers });
            expect(list.status).toBe(200);
            expect(((await list.json()) as unknown[]).length).toBeGreaterThan(0);
          }
          expect((await fetch(`${server.url}/api/history/stats`, { headers })).status).toBe(200);
        } finally {
          await server.stop();
        }
        const migrated = await adminRows<{ n: number }>(direct, 'select count(*)::int as n from mail_items');
        expect(migrated[0]!.n).toBeGreaterThan(0);
      } finally {
        await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('why the setting matters: named prepared statements break through the pooler without it', async () => {
    const direct = connectDatabase(bouncer.urlFor(a.url), 8);
    try {
      const runs = await Promise.allSettled(
        Array.from({ length: 60 }, (_, i) =>
          direct.pool.query({ name: 'pooled_probe', text: 'select $1::int as n, pg_sleep(0.005)', values: [i] }),
        ),
      );
      const failures = runs.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      expect(failures.length).toBeGreaterThan(0);
      expect(String(failures[0]!.reason)).toMatch(/prepared statement "pooled_probe"/);
    } finally {
      await direct.close();
    }
  });
});

describe.skipIf(installed)('through PgBouncer', () => {
  it(`is skipped: ${PGBOUNCER_BIN} is not installed (apt-get install pgbouncer)`, () => {
    expect(installed).toBe(false);
  });
});
