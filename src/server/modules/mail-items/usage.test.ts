import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { mailItemHistory, organizations } from '../../db/schema';
import { Client, createTestApp, type TestApp } from '../../test/harness';
import { packagesThisMonth } from '../organizations/usage.repository';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

// The expected month boundaries are computed here with Intl, independently of the SQL under test.

/** The wall clock of `tz` at `instant`, as numbers (month 1-12). */
function wallClock(tz: string, instant: number) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}

/** Local time minus UTC, in ms, at `instant`. */
function offsetMs(tz: string, instant: number) {
  const w = wallClock(tz, instant);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(instant / 1000) * 1000;
}

/** The instant local midnight of the 1st of `month` (0-based, may overflow into the next year) falls at in `tz`. */
function monthStartIn(tz: string, year: number, month: number) {
  const wall = Date.UTC(year, month, 1);
  return wall - offsetMs(tz, wall - offsetMs(tz, wall));
}

/** When the current month began, and when the next begins, in `tz` (UTC when tz is 'UTC'). */
function monthOf(tz: string, now = Date.now()) {
  const { year, month } = wallClock(tz, now);
  return { start: monthStartIn(tz, year, month - 1), next: monthStartIn(tz, year, month) };
}

const DAY = 86_400_000;

/** An organization in `tz`, with its admin selected. */
async function orgIn(timezone: string) {
  const admin = new Client(t);
  await admin.register();
  const res = await admin.post('/api/organizations', { name: `Desk in ${timezone}`, timezone });
  expect(res.statusCode).toBe(201);
  const org = res.json<{ id: string }>();
  admin.organizationId = org.id;
  return { admin, org };
}

/** A package logged at `at` (its 'created' history row; the item itself does not matter to the count). */
async function packageLoggedAt(organizationId: string, at: number) {
  await t.db.insert(mailItemHistory).values({
    organizationId,
    mailItemId: crypto.randomUUID(),
    action: 'created',
    newStatus: 'pending',
    createdAt: new Date(at),
  });
}

/**
 * Packages logged: one before both this month's starts (UTC's and the zone's), one between them,
 * one now. The one between counts exactly when the organization's own month began first; counted
 * in UTC it would be the other way round, so each assertion tells the two rules apart.
 */
async function logAroundMonthStart(organizationId: string, tz: string) {
  const local = monthOf(tz).start;
  const utc = monthOf('UTC').start;
  await packageLoggedAt(organizationId, Math.min(local, utc) - DAY);
  await packageLoggedAt(organizationId, (local + utc) / 2);
  await packageLoggedAt(organizationId, Date.now());
  const betweenCounts = local < utc;
  return { expected: betweenCounts ? 2 : 1, utcWouldCount: betweenCounts ? 1 : 2 };
}

describe("the monthly package count follows the organization's timezone", () => {
  // Auckland (UTC+12/+13) starts its month half a day before UTC: a package logged on the evening
  // of UTC's last day is already this month there. Los Angeles (UTC-8/-7) starts it later: a
  // package logged in UTC's first hours is still last month there.
  for (const tz of ['Pacific/Auckland', 'America/Los_Angeles']) {
    it(`counts the packages of the month in ${tz}, in the organization reply and at the intake's cap`, async () => {
      const { admin, org } = await orgIn(tz);
      const { expected, utcWouldCount } = await logAroundMonthStart(org.id, tz);
      expect(expected).not.toBe(utcWouldCount);

      const res = await admin.get(`/api/organizations/${org.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json<{ currentMonthPackages: number }>().currentMonthPackages).toBe(expected);

      // The intake's cap counts the same month: with room for exactly `expected`, one more is refused.
      await t.db.update(organizations).set({ maxPackagesPerMonth: expected }).where(eq(organizations.id, org.id));
      const refused = await admin.post('/api/mail-items', { type: 'package' });
      expect(refused.statusCode).toBe(402);
      expect(refused.json<{ code: string }>().code).toBe('package_limit');
      await t.db
        .update(organizations)
        .set({ maxPackagesPerMonth: expected + 1 })
        .where(eq(organizations.id, org.id));
      expect((await admin.post('/api/mail-items', { type: 'package' })).statusCode).toBe(201);
    });

    it(`answers usageResetDate as the start of the next month in ${tz}`, async () => {
      const { admin, org } = await orgIn(tz);
      const res = await admin.get(`/api/organizations/${org.id}`);
      const reset = Date.parse(res.json<{ usageResetDate: string }>().usageResetDate);
      expect(new Date(reset).toISOString()).toBe(new Date(monthOf(tz).next).toISOString());
      expect(wallClock(tz, reset)).toMatchObject({ day: 1, hour: 0, minute: 0, second: 0 });
      expect(reset).not.toBe(monthOf('UTC').next);
    });
  }
});

describe('the count stays an index read', () => {
  it('reads the month from mail_item_history_org_created_idx, bounded by the month start', async () => {
    const { org } = await orgIn('Pacific/Auckland');
    const { org: busy } = await orgIn('UTC');
    // Neighbours in the table, so that the planner's choice means something.
    await t.db.execute(sql`
      insert into mail_item_history (organization_id, mail_item_id, action, new_status, created_at)
      select ${busy.id}::uuid, gen_random_uuid(), case when g % 3 = 0 then 'notified' else 'created' end, 'pending',
             now() - make_interval(hours => g % 2000)
      from generate_series(1, 30000) g`);
    await t.asOwner('analyze mail_item_history');
    const query = t.db
      .select({ packages: packagesThisMonth() })
      .from(organizations)
      .where(eq(organizations.id, org.id))
      .toSQL();
    const plan = await t.pool.query(`explain ${query.sql}`, query.params);
    // The organization's month start is a bound of the index scan, not a filter on every row.
    expect(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')).toMatch(
      /(on|using) mail_item_history_org_created_idx.*\n\s*Index Cond: \(\(organization_id = organizations\.id\) AND \(created_at >= /,
    );
  });
});
