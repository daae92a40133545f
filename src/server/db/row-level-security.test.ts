import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { mailrooms, recipients } from './schema';
import { asPlatform, withTenants } from './tenant-scope';
import { connectDatabase, withPgTransaction } from './client';
import { appRoleFor } from './row-level-security';
import { mailroomsRepository } from '../modules/mailrooms/mailrooms.repository';
import { type Client, createTestApp, signUpWithOrganization, type TestApp } from '../test/harness';

let t: TestApp;
let a: Client;
let b: Client;

beforeAll(async () => {
  t = await createTestApp();
  ({ client: a } = await signUpWithOrganization(t, 'Wall A'));
  ({ client: b } = await signUpWithOrganization(t, 'Wall B'));
  for (const [c, name] of [
    [a, 'A mailroom'],
    [b, 'B mailroom'],
  ] as const) {
    expect((await c.post('/api/mailrooms', { name })).statusCode).toBe(201);
    expect((await c.post('/api/recipients', { firstName: name, lastName: 'Person' })).statusCode).toBe(201);
  }
});

afterEach(() => vi.restoreAllMocks());

const namesOf = (rows: { name: string }[]) => rows.map((r) => r.name).sort();

describe('row-level security', () => {
  it('holds every table with an organization_id column (and organizations), forced, with the tenant policy', async () => {
    const { rows } = await t.db.execute<{ table_name: string; secured: boolean; policies: number }>(sql`
      select c.relname as table_name, c.relrowsecurity and c.relforcerowsecurity as secured,
             (select count(*)::int from pg_policies p where p.tablename = c.relname and p.policyname = 'tenant_wall') as policies
      from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
        and (c.relname = 'organizations' or exists (
          select 1 from information_schema.columns k
          where k.table_schema = 'public' and k.table_name = c.relname and k.column_name = 'organization_id'))`);
    expect(rows.length).toBeGreaterThanOrEqual(18);
    expect(rows.filter((r) => !r.secured || r.policies !== 1).map((r) => r.table_name)).toEqual([]);
  });

  it('sends a scoped statement with its begin and commit in one round trip, and a failure leaks nothing', async () => {
    // One connection, so the next statement surely reuses the one that failed.
    const single = connectDatabase(t.url, 1, { role: await appRoleFor(t.url) });
    try {
      // What goes on the wire and when the replies come, on the pool's only connection.
      const events: string[] = [];
      const client = await single.pool.connect();
      const wire = client.connection as unknown as {
        query: (text: string) => void;
        sync: () => void;
        on: (event: string, listener: () => void) => void;
      };
      const [sendQuery, sendSync] = [wire.query.bind(wire), wire.sync.bind(wire)];
      wire.query = (text) => (events.push(text.split(/[;\s]/)[0]!), sendQuery(text));
      wire.sync = () => (events.push('statement'), sendSync());
      wire.on('readyForQuery', () => events.push('reply'));
      client.release();
      await withTenants([a.organizationId!], async () => {
        const rows = await single.db.select({ name: mailrooms.name }).from(mailrooms);
        expect(namesOf(rows)).toEqual(['A mailroom']);
        // All three written before the first reply: one round trip (pg's pipeline mode).
        expect(events).toEqual(['begin', 'select', 'commit', 'reply', 'reply', 'reply']);
        await expect(single.db.execute(sql`select 1/0`)).rejects.toThrow(/select 1\/0/);
      });
      // Same connection: usable, outside any transaction, and the scope did not stay on it.
      const { rows } = await single.db.execute<{ scope: string; in_transaction: boolean }>(
        sql`select coalesce(current_setting('pigeonhole.organization_ids', true), '') as scope,
                   now() = statement_timestamp() as in_transaction`,
      );
      expect(rows[0]).toEqual({ scope: '', in_transaction: true });
      expect(namesOf(await single.db.select({ name: mailrooms.name }).from(mailrooms))).toEqual([
        'A mailroom',
        'B mailroom',
      ]);
    } finally {
      await single.close();
    }
  });

  it('writes a scoped statement with its begin and commit in one system call, not one per message', async () => {
    const single = connectDatabase(t.url, 1, { role: await appRoleFor(t.url) });
    try {
      const client = await single.pool.connect();
      // What the socket hands the kernel: one _write or _writev call per system call.
      const socket = (client as unknown as { connection: { stream: Record<string, unknown> } }).connection.stream;
      let writes = 0;
      for (const method of ['_write', '_writev'] as const) {
        const original = socket[method] as ((...args: unknown[]) => unknown) | undefined;
        if (original) socket[method] = (...args: unknown[]) => (writes++, original.apply(socket, args));
      }
      client.release();
      await withTenants([a.organizationId!], async () => {
        const rows = await single.db.select({ name: mailrooms.name }).from(mailrooms);
        expect(namesOf(rows)).toEqual(['A mailroom']);
      });
      // begin + set_config, then parse, bind, describe, execute and sync, then commit (three writes uncorked).
      expect(writes).toBe(1);
    } finally {
      await single.close();
    }
  });

  it('runs the application as a role that does not bypass it', async () => {
    const { rows } = await t.db.execute<{ rolsuper: boolean; rolbypassrls: boolean }>(
      sql`select rolsuper, rolbypassrls from pg_roles where rolname = current_user`,
    );
    expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it('shows a scoped query with its filter removed only its own organization, and refuses writes to another', async () => {
    // Platform code (no scope) sees both organizations.
    expect(namesOf(await t.db.select({ name: mailrooms.name }).from(mailrooms))).toEqual(['A mailroom', 'B mailroom']);
    await withTenants([a.organizationId!], async () => {
      // No where clause at all: the database itself keeps B's rows out, in and out of transactions.
      expect(namesOf(await t.db.select({ name: mailrooms.name }).from(mailrooms))).toEqual(['A mailroom']);
      await t.db.transaction(async (tx) => {
        expect(namesOf(await tx.select({ name: recipients.firstName }).from(recipients))).toEqual(['A mailroom']);
      });
      await withPgTransaction(t.pool, async (client) => {
        expect((await client.query('select name from mailrooms')).rows).toEqual([{ name: 'A mailroom' }]);
      });
      // Unfiltered writes touch only A's rows; a row for B is refused outright.
      const renamed = await t.db
        .update(mailrooms)
        .set({ name: sql`${mailrooms.name} || ' (seen)'` })
        .returning();
      expect(namesOf(renamed)).toEqual(['A mailroom (seen)']);
      await expect(
        t.db.insert(mailrooms).values({ organizationId: b.organizationId!, name: 'Planted' }),
      ).rejects.toMatchObject({
        cause: { message: expect.stringMatching(/violates row-level security policy/) },
      });
      // Work a scoped request merely starts can run as platform code on purpose.
      expect(await asPlatform(async () => await t.db.$count(mailrooms))).toBe(2);
    });
    expect(namesOf(await t.db.select({ name: mailrooms.name }).from(mailrooms))).toEqual([
      'A mailroom (seen)',
      'B mailroom',
    ]);
  });

  it("keeps another organization's rows out of a request whose repository lost its filter", async () => {
    // The repository's own filter, removed: what a forgotten `where` would do.
    vi.spyOn(mailroomsRepository, 'list').mockImplementation((db) =>
      db
        .select()
        .from(mailrooms)
        .then((rows) => rows.map((r) => ({ ...r, locationCount: 0 })) as never),
    );
    const res = await a.get('/api/mailrooms');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().map((m: { name: string }) => m.name)).toEqual(['A mailroom (seen)']);
    expect(mailroomsRepository.list).toHaveBeenCalled();
  });
});
