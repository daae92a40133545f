import { randomUUID } from 'node:crypto';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it, vi } from 'vitest';
import { pageClause } from './prepared';
import { withTenants } from './tenant-scope';
import { dashboardRepository } from '../modules/dashboard/dashboard.repository';
import { mailItemsRepository } from '../modules/mail-items/mail-items.repository';
import { recipientsRepository } from '../modules/recipients/recipients.repository';
import { createTestApp } from '../test/harness';
import { oneConnection } from '../test/plans';

/**
 * The desk's list statements run as named prepared statements (decision 025): parsed once per
 * connection, and PostgreSQL keeps one generic plan for them instead of planning each request.
 * A search, or an organization's own status, is planned for its values every time.
 */

const t = await createTestApp();
// one connection, so that its prepared statements can be read back
const one = await oneConnection(t);

const organizationId = randomUUID(); // no items: the plans are what is looked at
const inScope = <T>(work: () => Promise<T>) => withTenants([organizationId], work);

type Prepared = { name: string; statement: string; generic_plans: string; custom_plans: string };
const prepared = async () =>
  (
    await one.pool.query<Prepared>(
      `select name, statement, generic_plans, custom_plans from pg_prepared_statements where name like 'q\\_%'`,
    )
  ).rows;

describe('pageClause', () => {
  const text = (s: ReturnType<typeof pageClause>) => new PgDialect().sqlToQuery(s);
  it('writes the page size into the text and sends the offset as a parameter, none on the first page', () => {
    expect(text(pageClause({ limit: 25, offset: 0 }))).toMatchObject({ sql: ' limit 25', params: [] });
    expect(text(pageClause({ limit: 25, offset: 50 }))).toMatchObject({ sql: ' limit 25 offset $1', params: [50] });
  });
  it('refuses a page size that is not a positive integer', () => {
    expect(() => pageClause({ limit: 2.5, offset: 0 })).toThrow();
    expect(() => pageClause({ limit: 0, offset: 0 })).toThrow();
    expect(() => pageClause({ limit: Number.NaN, offset: 0 })).toThrow();
  });
});

describe('the desk reads as prepared statements', () => {
  it('Mail Intake, Pending Pickups, their counters, the dashboard and the recipients list each keep a generic plan', async () => {
    const reads: Record<string, () => Promise<unknown>> = {
      intake: () => mailItemsRepository.page(one.db, organizationId, { order: 'desc', limit: 25, offset: 0 }),
      pending: () =>
        mailItemsRepository.page(one.db, organizationId, {
          statuses: ['pending', 'notified'],
          order: 'asc',
          limit: 50,
          offset: 0,
        }),
      counters: () => mailItemsRepository.pendingSummary(one.db, organizationId),
      stats: () => dashboardRepository.stats(one.db, organizationId),
      recent: () => dashboardRepository.recent(one.db, organizationId, 5),
      recipients: () => recipientsRepository.listJson(one.db, organizationId, { limit: 50, offset: 0 }),
    };
    const before = (await prepared()).length;
    for (let run = 0; run < 8; run++) {
      for (const read of Object.values(reads)) await inScope(read);
    }
    const statements = (await prepared()).slice(before);
    expect(statements).toHaveLength(Object.keys(reads).length); // one each, reused
    for (const s of statements) {
      expect(Number(s.generic_plans) + Number(s.custom_plans)).toBe(8);
      // after five custom plans PostgreSQL settles on the generic one: no planning per request
      expect(Number(s.generic_plans), s.statement.slice(0, 200)).toBeGreaterThan(0);
    }
    const pending = statements.find((s) => s.statement.includes("in ('notified', 'pending')"));
    expect(pending, 'lifecycle statuses are in the text, so the generic plan knows them').toBeDefined();
  });

  it('a search, a recipient, an organization status of its own or an unusual page size is planned each time', async () => {
    const before = (await prepared()).length;
    await inScope(() =>
      mailItemsRepository.page(one.db, organizationId, { search: 'acme', order: 'desc', limit: 25, offset: 0 }),
    );
    await inScope(() =>
      mailItemsRepository.page(one.db, organizationId, {
        recipientId: randomUUID(),
        order: 'desc',
        limit: 25,
        offset: 0,
      }),
    );
    await inScope(() =>
      mailItemsRepository.page(one.db, organizationId, {
        statuses: ['awaiting customs'],
        order: 'desc',
        limit: 25,
        offset: 0,
      }),
    );
    await inScope(() =>
      recipientsRepository.listJson(one.db, organizationId, { search: 'rosa', limit: 50, offset: 0 }),
    );
    // a page size the screens do not use
    await inScope(() => mailItemsRepository.page(one.db, organizationId, { order: 'desc', limit: 37, offset: 0 }));
    expect((await prepared()).length).toBe(before);
  });

  it('statuses are a set: any order or repetition reuses one statement', async () => {
    const page = (statuses: string[]) =>
      inScope(() => mailItemsRepository.page(one.db, organizationId, { statuses, order: 'asc', limit: 50, offset: 0 }));
    const before = (await prepared()).length;
    await page(['delivered', 'returned']);
    const after = (await prepared()).length;
    expect(after).toBe(before + 1);
    await page(['returned', 'delivered']);
    await page(['returned', 'delivered', 'returned']);
    expect((await prepared()).length).toBe(after);
  });

  it('a later page reuses the statement of its page size, with the offset as a parameter', async () => {
    const page = (offset: number) =>
      inScope(() => mailItemsRepository.page(one.db, organizationId, { order: 'desc', limit: 100, offset }));
    const before = (await prepared()).length;
    await page(100);
    const after = (await prepared()).length;
    expect(after).toBe(before + 1);
    await page(200);
    await page(300);
    expect((await prepared()).length).toBe(after);
    // and a statement's text never carries a value: the organization is a parameter
    for (const s of await prepared()) expect(s.statement).not.toContain(organizationId);
  });

  it('inside a transaction (no pool at hand) run unnamed', async () => {
    // a page size prepared nowhere yet: run outside a transaction it would add a statement
    const before = (await prepared()).length;
    const page = await inScope(() =>
      one.db.transaction((tx) => mailItemsRepository.page(tx, organizationId, { order: 'desc', limit: 10, offset: 0 })),
    );
    expect(page).toEqual({ json: '[]', total: 0 });
    expect((await prepared()).length).toBe(before);
  });
});

describe('a desk list statement is built once per shape', () => {
  it('later runs, for other organizations and offsets, fill in their own values', async () => {
    const orgs = await t.asOwner<{ id: string; name: string }>(
      `insert into organizations (name) values ('Shape A'), ('Shape B') returning id, name`,
    );
    await t.asOwner(`
      insert into mail_items (organization_id, type, status, tracking_number, arrived_at)
      select o.id, 'package', 'pending', o.name || ' #' || g, now() - make_interval(mins => g)
      from organizations o, generate_series(1, 30) g where o.name like 'Shape %'`);
    const build = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
    const page = (org: { id: string }, offset: number) =>
      withTenants([org.id], () =>
        mailItemsRepository.page(
          one.db,
          org.id,
          { statuses: ['pending'], order: 'desc', limit: 20, offset },
          'summary',
        ),
      );
    const trackingOf = async (org: { id: string }, offset: number) => {
      const { json, total } = await page(org, offset);
      return { total, tracking: (JSON.parse(json) as { trackingNumber: string }[]).map((i) => i.trackingNumber) };
    };
    try {
      const [a, b] = orgs as [{ id: string; name: string }, { id: string; name: string }];
      expect(await trackingOf(a, 0)).toEqual({
        total: 30,
        tracking: Array.from({ length: 20 }, (_, i) => `Shape A #${i + 1}`),
      });
      const built = build.mock.calls.length;
      expect(built).toBeGreaterThan(0);
      // the same shape for another organization: built already, and its own rows only
      expect(await trackingOf(b, 0)).toEqual({
        total: 30,
        tracking: Array.from({ length: 20 }, (_, i) => `Shape B #${i + 1}`),
      });
      expect(build.mock.calls.length).toBe(built);
      // a later page is a shape of its own, built once, then filled with each offset
      expect((await trackingOf(b, 20)).tracking).toEqual(Array.from({ length: 10 }, (_, i) => `Shape B #${i + 21}`));
      const withOffset = build.mock.calls.length;
      expect((await trackingOf(a, 25)).tracking).toEqual(Array.from({ length: 5 }, (_, i) => `Shape A #${i + 26}`));
      expect(build.mock.calls.length).toBe(withOffset);
    } finally {
      build.mockRestore();
    }
  });
});
