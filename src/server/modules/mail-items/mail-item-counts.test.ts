import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { organizations } from '../../db/schema';
import { Client, createTestApp, signUpWithOrganization, type TestApp } from '../../test/harness';
import { handOverRequest } from '../../test/hand-over';

/**
 * The counts the mail_items triggers keep (by status: migration 0018, decision 021; by arrival:
 * migration 0021, decision 027) against a count of the items themselves, after every kind of
 * write: they answer list totals and the dashboard.
 */
let t: TestApp;
let a: Client;
let b: Client;

beforeAll(async () => {
  t = await createTestApp();
  ({ client: a } = await signUpWithOrganization(t, 'Counted A'));
  ({ client: b } = await signUpWithOrganization(t, 'Counted B'));
});

/** Kept counts and counted items per organization and status (zero counts left out). */
async function bothCounts() {
  const kept = await t.db.execute<{ organization_id: string; status: string; n: number }>(sql`
    select organization_id, status, sum(n)::int n from mail_item_counts group by 1, 2 having sum(n) <> 0 order by 1, 2`);
  const counted = await t.db.execute<{ organization_id: string; status: string; n: number }>(sql`
    select organization_id, status, count(*)::int n from mail_items group by 1, 2 order by 1, 2`);
  return { kept: kept.rows, counted: counted.rows };
}

/** Kept arrivals and counted items per organization and 15-minute bucket (zero counts left out). */
async function bothArrivals() {
  const kept = await t.db.execute<{ organization_id: string; bucket: string; n: number }>(sql`
    select organization_id, bucket::text, sum(n)::int n from mail_item_arrivals
    group by 1, 2 having sum(n) <> 0 order by 1, 2`);
  const counted = await t.db.execute<{ organization_id: string; bucket: string; n: number }>(sql`
    select organization_id, date_bin('15 minutes', arrived_at, '2000-01-01 00:00:00+00')::text bucket, count(*)::int n
    from mail_items group by 1, 2 order by 1, 2`);
  return { kept: kept.rows, counted: counted.rows };
}

const expectCountsTrue = async () => {
  const { kept, counted } = await bothCounts();
  expect(kept).toEqual(counted);
  const arrivals = await bothArrivals();
  expect(arrivals.kept).toEqual(arrivals.counted);
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
    // Delivered only by the hand-over (decision 053).
    const changed = await Promise.all(
      ids
        .slice(0, 24)
        .map((id, i) =>
          statuses[i % 4] === 'delivered'
            ? handOverRequest(a, id)
            : a.put(`/api/mail-items/${id}`, { status: statuses[i % 4] }),
        ),
    );
    expect(changed.every((r) => r.statusCode === 200 || r.statusCode === 201)).toBe(true);
    expect((await a.put(`/api/mail-items/${ids[0]}`, { sender: 'Edited only' })).statusCode).toBe(200);
    const removed = await Promise.all(ids.slice(20, 26).map((id) => a.delete(`/api/mail-items/${id}`)));
    expect(removed.every((r) => r.statusCode === 204)).toBe(true);

    // Arrivals moved (an import correcting them), into other buckets and back, several at once.
    await t.asOwner(
      `update mail_items set arrived_at = arrived_at - make_interval(mins => 20 * (ascii(id::text) % 5))
       where organization_id = '${a.organizationId}'`,
    );
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
      sql`select (select count(*) from mail_item_counts where organization_id = ${c.organizationId})::int +
                 (select count(*) from mail_item_arrivals where organization_id = ${c.organizationId})::int n`,
    );
    expect(rows[0]!.n).toBe(0);
    await expectCountsTrue();
  });

  it('answer the totals of Mail Intake, Pending Pickups and the dashboard (today’s mail too), without counting the items', async () => {
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
        .concat([summary.totalPending, stats.pendingPickups, stats.todaysMail]);
    };
    expect(await totals()).toEqual(['2', '2', '2', 2, 2, 2]);
    // Shards only the kept counts know of: the totals read from them show them; a filtered list counts its rows.
    await t.asOwner(
      `insert into mail_item_counts (organization_id, status, shard, n) values ('${d.organizationId}', 'pending', 99, 1000);
       insert into mail_item_arrivals (organization_id, bucket, shard, n)
       values ('${d.organizationId}', mail_item_arrival_bucket(now()), 99, 500)`,
    );
    try {
      expect(await totals()).toEqual(['1002', '1002', '2', 1002, 1002, 502]);
    } finally {
      await t.asOwner(`delete from mail_item_counts where shard = 99; delete from mail_item_arrivals where shard = 99`);
    }
  });
});
