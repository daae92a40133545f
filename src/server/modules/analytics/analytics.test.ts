import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailItems, organizations, recipients } from '../../db/schema';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const HOUR = 3600_000;
const DAY = 24 * HOUR;
// Asia/Kolkata is UTC+05:30 all year: local days differ from UTC days, without DST surprises.
const TZ = 'Asia/Kolkata';
const OFFSET = 5.5 * HOUR;

/** Midnight of today in the organization's timezone, as an instant. */
function localMidnight() {
  return Math.floor((Date.now() + OFFSET) / DAY) * DAY - OFFSET;
}
/** The instant of `hour` (local, may be fractional) on the day `daysAgo` days before today. */
const at = (daysAgo: number, hour: number) => new Date(localMidnight() - daysAgo * DAY + hour * HOUR);
/** The local date `daysAgo` days before today, as YYYY-MM-DD. */
const localDate = (daysAgo: number) => new Date(localMidnight() + OFFSET - daysAgo * DAY).toISOString().slice(0, 10);

type Item = {
  daysAgo: number;
  hour: number;
  status: string;
  type?: string;
  courier?: string | null;
  recipientId?: string | null;
  /** Hours from arrival to hand-over, for delivered items. */
  pickupHours?: number;
};

async function insertItems(organizationId: string, items: Item[]) {
  for (const it of items) {
    const arrivedAt = at(it.daysAgo, it.hour);
    await t.db.insert(mailItems).values({
      organizationId,
      type: it.type ?? 'package',
      status: it.status,
      courierCompany: it.courier ?? null,
      recipientId: it.recipientId ?? null,
      arrivedAt,
      deliveredAt: it.pickupHours === undefined ? null : new Date(arrivedAt.getTime() + it.pickupHours * HOUR),
    });
  }
}

async function newOrganization(timezone = TZ) {
  const c = new Client(t);
  await c.register();
  const org = await c.createOrganization();
  await t.db.update(organizations).set({ timezone }).where(eq(organizations.id, org.id));
  return { c, orgId: org.id };
}

async function addRecipient(organizationId: string, firstName: string, lastName: string, createdAt?: Date) {
  const [r] = await t.db
    .insert(recipients)
    .values({ organizationId, firstName, lastName, ...(createdAt ? { createdAt } : {}) })
    .returning();
  return r!.id;
}

const zeroHours = () => Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0 }));
const hoursWith = (counts: Record<number, number>) =>
  zeroHours().map((h) => ({ hour: h.hour, count: counts[h.hour] ?? 0 }));

describe('GET /api/analytics', () => {
  let c: Client;
  let amara: string;
  let ben: string;

  beforeAll(async () => {
    const a = await newOrganization();
    c = a.c;
    amara = await addRecipient(a.orgId, 'Amara', 'Okafor');
    ben = await addRecipient(a.orgId, 'Ben', 'Cole');
    await insertItems(a.orgId, [
      // Today, just after local midnight (18:30 UTC yesterday).
      { daysAgo: 0, hour: 0.001, status: 'pending', courier: 'UPS', recipientId: amara },
      {
        daysAgo: 1,
        hour: 9.5,
        status: 'delivered',
        type: 'letter',
        courier: 'UPS',
        recipientId: amara,
        pickupHours: 2,
      },
      { daysAgo: 1, hour: 9.75, status: 'delivered', courier: null, recipientId: ben, pickupHours: 4 },
      // 23:30 local: 18:00 UTC; more than 72 hours old and notified, so overdue.
      { daysAgo: 4, hour: 23.5, status: 'notified', courier: '  ', recipientId: amara },
      // 02:00 local is 20:30 UTC of the day before: the local day and hour must be used.
      { daysAgo: 5, hour: 2, status: 'delivered', courier: 'UPS', recipientId: ben, pickupHours: 10 },
      // Outside 7 days, inside 30.
      { daysAgo: 10, hour: 12, status: 'delivered', type: 'letter', courier: 'DHL', pickupHours: 20 },
      // Outside 30 days; pending for weeks, so overdue.
      { daysAgo: 40, hour: 12, status: 'pending', courier: 'DHL', recipientId: amara },
    ]);
    // Another organization's items, on the same days, never count.
    const other = await newOrganization();
    const stranger = await addRecipient(other.orgId, 'Zed', 'Stranger');
    await insertItems(
      other.orgId,
      [0, 1, 1, 2, 4, 5, 10, 40].map((daysAgo) => ({
        daysAgo,
        hour: 9.5,
        status: daysAgo > 3 ? 'pending' : 'delivered',
        courier: 'Leak',
        recipientId: stranger,
        pickupHours: daysAgo > 3 ? undefined : 1,
      })),
    );
  });

  it('answers 7 days: zero days, local days and hours, couriers with Unknown, pickup average and p90', async () => {
    const res = await c.get('/api/analytics?range=7');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      range: '7',
      perDay: [6, 5, 4, 3, 2, 1, 0].map((d) => ({ date: localDate(d), count: { 0: 1, 1: 2, 4: 1, 5: 1 }[d] ?? 0 })),
      byCourier: [
        { name: 'UPS', count: 3 },
        { name: 'Unknown', count: 2 },
      ],
      byType: [
        { name: 'package', count: 4 },
        { name: 'letter', count: 1 },
      ],
      // Hand-overs within the range: 2, 4 and 10 hours. p90 interpolates: 4 + 0.8 × (10 − 4).
      pickupHours: { average: 5.3, p90: 8.8 },
      deliveryRate: 60,
      overdue: 2,
      busiestHours: hoursWith({ 0: 1, 9: 2, 23: 1, 2: 1 }),
      topRecipients: [
        { recipientId: amara, name: 'Amara Okafor', count: 3 },
        { recipientId: ben, name: 'Ben Cole', count: 2 },
      ],
    });
  });

  it('answers 30 days (the default) with one entry per day', async () => {
    const body = (await c.get('/api/analytics')).json();
    expect(body.range).toBe('30');
    expect(body.perDay).toHaveLength(30);
    expect(body.perDay[0].date).toBe(localDate(29));
    expect(body.perDay[29]).toEqual({ date: localDate(0), count: 1 });
    expect(body.perDay.find((d: { date: string }) => d.date === localDate(10)).count).toBe(1);
    expect(body.perDay.reduce((s: number, d: { count: number }) => s + d.count, 0)).toBe(6);
    expect(body.byCourier).toEqual([
      { name: 'UPS', count: 3 },
      { name: 'Unknown', count: 2 },
      { name: 'DHL', count: 1 },
    ]);
    // 2, 4, 10 and 20 hours: p90 = 10 + 0.7 × (20 − 10).
    expect(body.pickupHours).toEqual({ average: 9, p90: 17 });
    expect(body.deliveryRate).toBe(67);
    expect(body.overdue).toBe(2);
  });

  it('answers today only for range 1, and all time from the first item', async () => {
    const today = (await c.get('/api/analytics?range=1')).json();
    expect(today.perDay).toEqual([{ date: localDate(0), count: 1 }]);
    expect(today.pickupHours).toEqual({ average: null, p90: null });
    expect(today.deliveryRate).toBe(0);
    expect(today.busiestHours).toEqual(hoursWith({ 0: 1 }));
    expect(today.topRecipients).toEqual([{ recipientId: amara, name: 'Amara Okafor', count: 1 }]);

    const all = (await c.get('/api/analytics?range=0')).json();
    expect(all.range).toBe('0');
    expect(all.perDay).toHaveLength(41);
    expect(all.perDay[0]).toEqual({ date: localDate(40), count: 1 });
    expect(all.deliveryRate).toBe(57);
    expect(all.topRecipients[0]).toEqual({ recipientId: amara, name: 'Amara Okafor', count: 4 });
  });

  it('follows the organization timezone', async () => {
    const { c: utc, orgId } = await newOrganization('UTC');
    // 23:30 UTC two days ago; in Kolkata that is 05:00 the next day.
    await insertItems(orgId, [{ daysAgo: 2, hour: 23.5 + 5.5, status: 'pending' }]);
    const inUtc = (await utc.get('/api/analytics?range=7')).json();
    await t.db.update(organizations).set({ timezone: TZ }).where(eq(organizations.id, orgId));
    const inKolkata = (await utc.get('/api/analytics?range=7')).json();
    const hourWith = (b: { busiestHours: Array<{ hour: number; count: number }> }) =>
      b.busiestHours.find((h) => h.count === 1)!.hour;
    expect(hourWith(inKolkata)).toBe(5);
    expect(hourWith(inUtc)).toBe(23);
    const dayWith = (b: { perDay: Array<{ date: string; count: number }> }) =>
      b.perDay.find((d) => d.count === 1)!.date;
    expect(Date.parse(dayWith(inKolkata)) - Date.parse(dayWith(inUtc))).toBe(DAY);
  });

  it('answers zeros, 24 empty hours and empty lists without items', async () => {
    const { c: empty } = await newOrganization();
    const body = (await empty.get('/api/analytics?range=30')).json();
    expect(body).toEqual({
      range: '30',
      perDay: Array.from({ length: 30 }, (_, i) => ({ date: localDate(29 - i), count: 0 })),
      byCourier: [],
      byType: [],
      pickupHours: { average: null, p90: null },
      deliveryRate: 0,
      overdue: 0,
      busiestHours: zeroHours(),
      topRecipients: [],
    });
    expect((await empty.get('/api/analytics?range=0')).json().perDay).toEqual([]);
  });

  it('lists at most 10 top recipients, the busiest first', async () => {
    const { c: busy, orgId } = await newOrganization();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await addRecipient(orgId, `R${String(i).padStart(2, '0')}`, 'Person'));
    await insertItems(
      orgId,
      ids.flatMap((recipientId, i) =>
        Array.from({ length: i === 11 ? 3 : 1 }, () => ({ daysAgo: 1, hour: 10, status: 'pending', recipientId })),
      ),
    );
    const top = (await busy.get('/api/analytics?range=7')).json().topRecipients;
    expect(top).toHaveLength(10);
    expect(top[0]).toEqual({ recipientId: ids[11], name: 'R11 Person', count: 3 });
  });

  it.each(['5', 'abc', '-1', '7.0', ''])('refuses range=%s with 400 and the contract message', async (range) => {
    const res = await c.get(`/api/analytics?range=${range}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('range must be 1, 7, 30, 90 or 0 (all time)');
  });

  it('works for members, and refuses signed-out callers and non-members', async () => {
    const { orgId } = await newOrganization();
    const { client: member } = await joinAs(t, orgId);
    expect((await member.get('/api/analytics?range=7')).statusCode).toBe(200);
    const outsider = new Client(t);
    await outsider.register();
    outsider.organizationId = orgId;
    expect((await outsider.get('/api/analytics')).statusCode).toBe(403);
    const anon = new Client(t);
    anon.organizationId = orgId;
    expect((await anon.get('/api/analytics')).statusCode).toBe(401);
  });
});
