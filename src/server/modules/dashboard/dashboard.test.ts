import { beforeAll, describe, expect, it } from 'vitest';
import { mailItems, organizations, recipients } from '../../db/schema';
import { eq } from 'drizzle-orm';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const HOUR = 3600_000;

async function seed(
  organizationId: string,
  items: Array<{ status: string; hoursAgo: number; sender?: string; recipient?: boolean }>,
) {
  const [r] = await t.db
    .insert(recipients)
    .values({ organizationId, firstName: 'Amara', lastName: 'Okafor' })
    .returning();
  await t.db.insert(recipients).values({ organizationId, firstName: 'Gone', lastName: 'Away', isActive: false });
  for (const it of items) {
    await t.db.insert(mailItems).values({
      organizationId,
      type: 'package',
      status: it.status,
      sender: it.sender ?? null,
      recipientId: it.recipient === false ? null : r!.id,
      arrivedAt: new Date(Date.now() - it.hoursAgo * HOUR),
    });
  }
}

describe('GET /api/dashboard/stats', () => {
  it('is zero and 0% for a new organization', async () => {
    const c = new Client(t);
    await c.register();
    await c.createOrganization();
    const res = await c.get('/api/dashboard/stats');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ todaysMail: 0, pendingPickups: 0, activeRecipients: 0, deliveryRate: 0 });
  });

  it('counts today, pending (pending or notified), active recipients and the rounded delivery rate', async () => {
    const c = new Client(t);
    await c.register();
    const org = await c.createOrganization();
    // Pin the organization to UTC and place items well inside or outside today.
    await t.db.update(organizations).set({ timezone: 'UTC' }).where(eq(organizations.id, org.id));
    const midnight = new Date();
    midnight.setUTCHours(0, 0, 0, 0);
    const hoursSinceMidnight = (Date.now() - midnight.getTime()) / HOUR;
    await seed(org.id, [
      { status: 'pending', hoursAgo: hoursSinceMidnight / 2 },
      { status: 'notified', hoursAgo: hoursSinceMidnight / 3 },
      { status: 'delivered', hoursAgo: hoursSinceMidnight + 5 },
      { status: 'returned', hoursAgo: hoursSinceMidnight + 50 },
      { status: 'delivered', hoursAgo: hoursSinceMidnight + 80 },
      { status: 'delivered', hoursAgo: hoursSinceMidnight + 90 },
    ]);
    const other = new Client(t);
    await other.register();
    const otherOrg = await other.createOrganization();
    await seed(otherOrg.id, [{ status: 'pending', hoursAgo: 0.01 }]);

    const res = await c.get('/api/dashboard/stats');
    expect(res.json()).toEqual({ todaysMail: 2, pendingPickups: 2, activeRecipients: 1, deliveryRate: 50 });
  });

  it("counts 'today' in the organization's timezone", async () => {
    const c = new Client(t);
    await c.register();
    const org = await c.createOrganization();
    // Kiritimati is UTC+14 and Niue UTC-11: an item 13 hours old is "today" in at most one of them.
    await seed(org.id, [{ status: 'pending', hoursAgo: 13 }]);
    const counts: number[] = [];
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Niue']) {
      // Through the API: the change also drops the organization's cached figures.
      expect((await c.put(`/api/organizations/${org.id}`, { timezone: tz })).statusCode).toBe(200);
      counts.push((await c.get('/api/dashboard/stats')).json().todaysMail);
    }
    const localHour = (offset: number) => (new Date().getUTCHours() + offset + 24) % 24;
    expect(counts).toEqual([localHour(14) >= 13 ? 1 : 0, localHour(-11) >= 13 ? 1 : 0]);
  });

  it('works for members, and refuses signed-out callers and non-members', async () => {
    const admin = new Client(t);
    await admin.register();
    const org = await admin.createOrganization();
    const { client: member } = await joinAs(t, org.id);
    expect((await member.get('/api/dashboard/stats')).statusCode).toBe(200);
    const outsider = new Client(t);
    await outsider.register();
    outsider.organizationId = org.id;
    expect((await outsider.get('/api/dashboard/stats')).statusCode).toBe(403);
    const anon = new Client(t);
    anon.organizationId = org.id;
    expect((await anon.get('/api/dashboard/stats')).statusCode).toBe(401);
  });
});

describe('GET /api/dashboard/recent-activity', () => {
  it('answers the newest items first with their recipient, limited, and nothing of other organizations', async () => {
    const c = new Client(t);
    await c.register();
    const org = await c.createOrganization();
    await seed(org.id, [
      { status: 'pending', hoursAgo: 3, sender: 'Third' },
      { status: 'delivered', hoursAgo: 1, sender: 'First' },
      { status: 'notified', hoursAgo: 2, recipient: false },
      { status: 'pending', hoursAgo: 4 },
    ]);
    const other = new Client(t);
    await other.register();
    const otherOrg = await other.createOrganization();
    await seed(otherOrg.id, [{ status: 'pending', hoursAgo: 0.1, sender: 'Leak' }]);

    const res = await c.get('/api/dashboard/recent-activity?limit=3');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list).toHaveLength(3);
    expect(list.map((i: { sender: string | null }) => i.sender)).toEqual(['First', null, 'Third']);
    expect(list[0].recipient).toEqual({ firstName: 'Amara', lastName: 'Okafor' });
    expect(list[1].recipient).toBeNull();
    expect(Date.parse(list[0].arrivedAt)).toBeGreaterThan(Date.parse(list[1].arrivedAt));
    expect((await c.get('/api/dashboard/recent-activity')).json()).toHaveLength(4);
  });

  it.each(['0', '51', 'abc', '2.5'])('refuses limit=%s with 400', async (limit) => {
    const c = new Client(t);
    await c.register();
    await c.createOrganization();
    const res = await c.get(`/api/dashboard/recent-activity?limit=${limit}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/limit/);
  });
});

describe('GET /api/dashboard/trends', () => {
  const DAY = 24 * HOUR;
  // Asia/Kolkata is UTC+05:30 all year, so its local days are not UTC days.
  const OFFSET = 5.5 * HOUR;
  const localMidnight = () => Math.floor((Date.now() + OFFSET) / DAY) * DAY - OFFSET;

  async function insert(organizationId: string, rows: Array<{ arrivedAt: Date | number; status: string }>) {
    for (const r of rows) {
      await t.db.insert(mailItems).values({
        organizationId,
        type: 'package',
        status: r.status,
        arrivedAt: new Date(r.arrivedAt),
      });
    }
  }

  async function organization() {
    const c = new Client(t);
    await c.register();
    const org = await c.createOrganization();
    await t.db.update(organizations).set({ timezone: 'Asia/Kolkata' }).where(eq(organizations.id, org.id));
    return { c, orgId: org.id };
  }

  async function seedTrends(organizationId: string) {
    const today = localMidnight();
    const yesterday = today - DAY;
    const now = Date.now();
    await insert(organizationId, [
      // Today (local): 3 items.
      { arrivedAt: today + 1000, status: 'delivered' },
      { arrivedAt: today + 2000, status: 'pending' },
      { arrivedAt: today + 3000, status: 'pending' },
      // Yesterday before this time of day: 2; the one at 23:59:59 comes later in the day.
      { arrivedAt: yesterday + 1000, status: 'delivered' },
      { arrivedAt: yesterday + 2000, status: 'delivered' },
      { arrivedAt: today - 1000, status: 'delivered' },
      // Overdue is pending or notified for more than 72 hours.
      { arrivedAt: now - 73 * HOUR, status: 'pending' },
      { arrivedAt: now - 80 * HOUR, status: 'notified' },
      { arrivedAt: now - 100 * HOUR, status: 'delivered' },
      { arrivedAt: now - 71 * HOUR, status: 'pending' },
      // The 30 days before the last 30: 3 of 4 delivered (75%).
      { arrivedAt: now - 35 * DAY, status: 'delivered' },
      { arrivedAt: now - 40 * DAY, status: 'delivered' },
      { arrivedAt: now - 50 * DAY, status: 'delivered' },
      { arrivedAt: now - 59 * DAY, status: 'returned' },
      // Older than 60 days: outside both windows.
      { arrivedAt: now - 61 * DAY, status: 'returned' },
    ]);
    await t.db.insert(recipients).values([
      { organizationId, firstName: 'New', lastName: 'One', createdAt: new Date(now - 2 * DAY) },
      { organizationId, firstName: 'New', lastName: 'Two', createdAt: new Date(now - 6 * DAY), isActive: false },
      { organizationId, firstName: 'Old', lastName: 'Three', createdAt: new Date(now - 8 * DAY) },
    ]);
  }

  it('computes today versus yesterday at the same time, overdue, new recipients and the rate change', async () => {
    const { c, orgId } = await organization();
    await seedTrends(orgId);
    // A second organization with the same rows, and more, never counts.
    const other = await organization();
    await seedTrends(other.orgId);
    await insert(other.orgId, [{ arrivedAt: Date.now() - 100 * HOUR, status: 'pending' }]);

    const res = await c.get('/api/dashboard/trends');
    expect(res.statusCode).toBe(200);
    // Today 3 vs yesterday 2: +50%. Last 30 days: 5 of 10 delivered (50%) vs 75% before: −25 points.
    expect(res.json()).toEqual({
      todayVsYesterdayPercent: 50,
      overdue: 2,
      newRecipientsThisWeek: 2,
      deliveryRateChange: -25,
    });
  });

  it('answers null versus yesterday and zeros for a new organization', async () => {
    const { c, orgId } = await organization();
    await insert(orgId, [{ arrivedAt: localMidnight() + 1000, status: 'pending' }]);
    expect((await c.get('/api/dashboard/trends')).json()).toEqual({
      todayVsYesterdayPercent: null,
      overdue: 0,
      newRecipientsThisWeek: 0,
      // 0% of one item this month against no items before.
      deliveryRateChange: 0,
    });
  });

  it('counts yesterday by the local day of the organization timezone', async () => {
    const { c, orgId } = await organization();
    const today = localMidnight();
    // A second after the start of local yesterday counts; a second before it is the day before.
    await insert(orgId, [
      { arrivedAt: today - DAY + 1000, status: 'pending' },
      { arrivedAt: today - DAY - 1000, status: 'pending' },
      { arrivedAt: today + 1000, status: 'pending' },
    ]);
    // One today against one yesterday: no change (UTC days would split these differently).
    expect((await c.get('/api/dashboard/trends')).json().todayVsYesterdayPercent).toBe(0);
  });

  it('refuses signed-out callers and non-members', async () => {
    const { orgId } = await organization();
    const { client: member } = await joinAs(t, orgId);
    expect((await member.get('/api/dashboard/trends')).statusCode).toBe(200);
    const outsider = new Client(t);
    await outsider.register();
    outsider.organizationId = orgId;
    expect((await outsider.get('/api/dashboard/trends')).statusCode).toBe(403);
    const anon = new Client(t);
    anon.organizationId = orgId;
    expect((await anon.get('/api/dashboard/trends')).statusCode).toBe(401);
  });
});
