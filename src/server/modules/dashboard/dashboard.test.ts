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
      await t.db.update(organizations).set({ timezone: tz }).where(eq(organizations.id, org.id));
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
