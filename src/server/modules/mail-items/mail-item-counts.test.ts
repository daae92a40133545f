import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { organizations } from '../../db/schema';
import { Client, createTestApp, type TestApp } from '../../test/harness';

/**
 * The counts the mail_items triggers keep (migration 0018, decision 021) against a count of the
 * items themselves, after every kind of write: they answer list totals and the dashboard.
 */
let t: TestApp;
let a: Client;
let b: Client;

beforeAll(async () => {
  t = await createTestApp();
  a = new Client(t);
  await a.register();
  await a.createOrganization('Counted A');
  b = new Client(t);
  await b.register();
  await b.createOrganization('Counted B');
});

/** Kept counts and counted items per organization and status (zero counts left out). */
async function bothCounts() {
  const kept = await t.db.execute<{ organization_id: string; status: string; n: number }>(sql`
    select organization_id, status, sum(n)::int n from mail_item_counts group by 1, 2 having sum(n) <> 0 order by 1, 2`);
  const counted = await t.db.execute<{ organization_id: string; status: string; n: number }>(sql`
    select organization_id, status, count(*)::int n from mail_items group by 1, 2 order by 1, 2`);
  return { kept: kept.rows, counted: counted.rows };
}

const expectCountsTrue = async () => {
  const { kept, counted } = await bothCounts();
  expect(kept).toEqual(counted);
  return counted;
};

const log = (c: Client, n: number) =>
  Promise.all(Array.from({ length: n }, () => c.post('/api/mail-items', { type: 'package' })));

describe('kept mail item counts', () => {
  it('follow intake, status changes, edits and deletes, many at once and in two organizations', async () => {
    const [made, others] = await Promise.all([log(a, 30), log(b, 7)]);
    expect([...made, ...others].every((r) => r.statusCode === 201)).toBe(true);
    const ids = made.map((r) => r.json().id as string);
    const statuses = ['notified', 'delivered', 'returned', 'pending'];
    const changed = await Promise.all(
      ids.slice(0, 24).map((id, i) => a.put(`/api/mail-items/${id}`, { status: statuses[i % 4] })),
    );
    expect(changed.every((r) => r.statusCode === 200)).toBe(true);
    expect((await a.put(`/api/mail-items/${ids[0]}`, { sender: 'Edited only' })).statusCode).toBe(200);
    const removed = await Promise.all(ids.slice(20, 26).map((id) => a.delete(`/api/mail-items/${id}`)));
    expect(removed.every((r) => r.statusCode === 204)).toBe(true);

    const counted = await expectCountsTrue();
    const ofA = counted.filter((r) => r.organization_id === a.organizationId);
    expect(ofA.reduce((n, r) => n + r.n, 0)).toBe(24);
    // The list totals come from the kept counts (a filter by status alone) and agree with the rows.
    const waiting = await a.get('/api/mail-items?status=pending,notified&limit=100');
    expect(Number(waiting.headers['x-total-count'])).toBe((waiting.json() as unknown[]).length);
    const all = await a.get('/api/mail-items?limit=100');
    expect(Number(all.headers['x-total-count'])).toBe(24);
    expect((all.json() as unknown[]).length).toBe(24);
    // Another filter still counts the matching rows.
    const letters = await a.get('/api/mail-items?type=letter');
    expect(letters.headers['x-total-count']).toBe('0');
  });

  it('leave with their organization, which can still be deleted with its items', async () => {
    const c = new Client(t);
    await c.register();
    await c.createOrganization('Counted C');
    expect((await log(c, 3)).every((r) => r.statusCode === 201)).toBe(true);
    await t.db.delete(organizations).where(eq(organizations.id, c.organizationId!));
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int n from mail_item_counts where organization_id = ${c.organizationId}`,
    );
    expect(rows[0]!.n).toBe(0);
    await expectCountsTrue();
  });

  it('answer the totals of Mail Intake, Pending Pickups and the dashboard, without counting the items', async () => {
    const d = new Client(t);
    await d.register();
    await d.createOrganization('Counted D');
    expect((await log(d, 2)).every((r) => r.statusCode === 201)).toBe(true);
    const totals = async () => {
      t.forgetEverything();
      const all = await d.get('/api/mail-items?limit=25');
      const waiting = await d.get('/api/mail-items?status=pending,notified&order=asc&limit=50');
      const letters = await d.get('/api/mail-items?type=package');
      const summary = (await d.get('/api/mail-items/pending-summary')).json();
      const stats = (await d.get('/api/dashboard/stats')).json();
      return [all, waiting, letters]
        .map((r) => r.headers['x-total-count'])
        .concat([summary.totalPending, stats.pendingPickups]);
    };
    expect(await totals()).toEqual(['2', '2', '2', 2, 2]);
    // A shard only the kept counts know of: the totals read from them show it; a filtered list counts its rows.
    await t.asOwner(
      `insert into mail_item_counts (organization_id, status, shard, n) values ('${d.organizationId}', 'pending', 99, 1000)`,
    );
    try {
      expect(await totals()).toEqual(['1002', '1002', '2', 1002, 1002]);
    } finally {
      await t.asOwner(`delete from mail_item_counts where shard = 99`);
    }
  });
});
