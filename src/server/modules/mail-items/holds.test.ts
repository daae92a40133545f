import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_HOLD_DAYS } from '../../../contract';
import { mailItemHistory, mailItems, notificationJobs, organizations } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { handedOver } from '../../test/hand-over';
import { Client, createTestApp, type TestApp } from '../../test/harness';
import { createMailItemsService, type MailItemsService } from './mail-items.service';

/**
 * A recipient's hold (decision 035) through the service the recipient's page calls: the dates in
 * the organization's calendar, the item's recipient only, and what a hold changes at the desk (not
 * overdue in the rows and counters, no reminder) until it ends.
 */

let t: TestApp;
let holds: MailItemsService;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  holds = createMailItemsService({ db: t.db, caches: t.app.caches } as Parameters<typeof createMailItemsService>[0]);
});

type Item = { id: string; heldUntil: string | null; isOverdue: boolean; status: string };

async function desk(timezone = 'UTC') {
  const admin = new Client(t);
  await admin.register();
  const org = await admin.createOrganization(`Holds ${timezone}`);
  await t.db.update(organizations).set({ timezone }).where(eq(organizations.id, org.id));
  t.forgetEverything();
  const recipient = async (firstName: string) =>
    (
      await admin.post('/api/recipients', {
        firstName,
        lastName: 'Okafor',
        email: `${firstName.toLowerCase()}@example.test`,
      })
    ).json<{ id: string }>();
  const amara = await recipient('Amara');
  const ben = await recipient('Ben');
  const log = async (recipientId: string, daysAgo = 0) => {
    const item = (await admin.post('/api/mail-items', { type: 'package', recipientId })).json<Item>();
    if (daysAgo) {
      await t.db
        .update(mailItems)
        .set({ arrivedAt: new Date(Date.now() - daysAgo * DAY) })
        .where(eq(mailItems.id, item.id));
      t.forgetEverything();
    }
    return item;
  };
  return { admin, org, amara, ben, log, caller: { organizationId: org.id, recipientId: amara.id } };
}

/** The organization's calendar date `days` from its today. */
function dateIn(timezone: string, days: number) {
  return new Date(Date.now() + days * DAY).toLocaleDateString('en-CA', { timeZone: timezone });
}

async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('holding an item until a date', () => {
  it('holds until the midnight after the date in the organization’s timezone, and says so in the history', async () => {
    const d = await desk('America/New_York');
    const item = await d.log(d.amara.id, 5);
    const until = dateIn('America/New_York', 3);
    const held = await holds.hold(d.caller, item.id, until);
    const ends = new Date(held.heldUntil!);
    // the next day's midnight in New York: 04:00 or 05:00 UTC, by daylight saving
    expect(ends.toLocaleString('en-US', { timeZone: 'America/New_York', hour12: false })).toMatch(
      /, 24:00:00$|, 00:00:00$/,
    );
    expect(ends.toLocaleDateString('en-CA', { timeZone: 'America/New_York' })).toBe(dateIn('America/New_York', 4));
    expect(held.isOverdue).toBe(false);

    const history = await t.db.select().from(mailItemHistory).where(eq(mailItemHistory.mailItemId, item.id));
    const row = history.find((h) => h.action === 'held');
    expect(row?.performedBy).toBeNull();
    expect(row?.notes).toMatch(/^Held until \w{3}, \w{3} \d{1,2} at the recipient’s request$/);
  });

  it('is not overdue on Pending Pickups, in its counters, on the dashboard or in the reports until the hold ends', async () => {
    const d = await desk();
    const held = await d.log(d.amara.id, 5);
    const other = await d.log(d.ben.id, 5);
    const before = (await d.admin.get('/api/mail-items/pending-summary')).json<{ overdue: number }>();
    expect(before.overdue).toBe(2);

    await holds.hold(d.caller, held.id, dateIn('UTC', 2));
    const page = (await d.admin.get('/api/mail-items?status=pending,notified&view=summary')).json<Item[]>();
    expect(page.find((i) => i.id === held.id)).toMatchObject({ isOverdue: false, heldUntil: expect.any(String) });
    expect(page.find((i) => i.id === other.id)).toMatchObject({ isOverdue: true, heldUntil: null });
    expect((await d.admin.get('/api/mail-items/pending-summary')).json<{ overdue: number }>().overdue).toBe(1);
    expect((await d.admin.get('/api/dashboard/trends')).json<{ overdue: number }>().overdue).toBe(1);
    expect((await d.admin.get('/api/analytics?range=30')).json<{ overdue: number }>().overdue).toBe(1);

    // The hold ended (moved into the past as time would): overdue again everywhere.
    await t.db
      .update(mailItems)
      .set({ heldUntil: new Date(Date.now() - 1000) })
      .where(eq(mailItems.id, held.id));
    t.forgetEverything();
    expect((await d.admin.get('/api/mail-items/pending-summary')).json<{ overdue: number }>().overdue).toBe(2);
    expect((await d.admin.get(`/api/mail-items/${held.id}`)).json<Item>().isOverdue).toBe(true);
  });

  it('sends no reminder for a held item until the hold ends', async () => {
    const d = await desk();
    const held = await d.log(d.amara.id, 5);
    const other = await d.log(d.ben.id, 5);
    await holds.hold(d.caller, held.id, dateIn('UTC', 2));
    const remindersOf = async () =>
      (
        await t.db
          .select()
          .from(notificationJobs)
          .where(
            and(
              eq(notificationJobs.organizationId, d.org.id),
              eq(notificationJobs.event, 'mail_item.reminder'),
              eq(notificationJobs.channel, 'event'),
            ),
          )
      ).map((r) => r.mailItemId);
    await t.app.notifications.scanReminders();
    expect(await remindersOf()).toEqual([other.id]);
    // Three days on, the hold has ended: the held item is reminded of too.
    await t.app.notifications.scanReminders(new Date(Date.now() + 3 * DAY));
    expect(await remindersOf()).toContain(held.id);
  });

  it('lifts a hold, and ends it when the item is handed over', async () => {
    const d = await desk();
    const item = await d.log(d.amara.id, 5);
    await holds.hold(d.caller, item.id, dateIn('UTC', 1));
    const lifted = await holds.hold(d.caller, item.id, null);
    expect(lifted).toMatchObject({ heldUntil: null, isOverdue: true });
    await holds.hold(d.caller, item.id, dateIn('UTC', 1));
    await handedOver(d.admin, item.id);
    const delivered = (await d.admin.get(`/api/mail-items/${item.id}`)).json<Item>();
    expect(delivered).toMatchObject({ status: 'delivered', heldUntil: null });
  });
});

describe('what a hold refuses (and changes nothing)', () => {
  it('a date in the past, over the limit, or that does not exist: 400 with a sentence', async () => {
    const d = await desk('Pacific/Auckland');
    const item = await d.log(d.amara.id);
    const cases: Array<[string, string, RegExp]> = [
      [dateIn('Pacific/Auckland', -1), 'hold_in_past', /in the past/],
      [dateIn('Pacific/Auckland', MAX_HOLD_DAYS + 1), 'hold_too_long', /at most 30 days/],
      ['2026-02-30', 'invalid_date', /YYYY-MM-DD/],
    ];
    for (const [until, code, message] of cases) {
      const err = await refusal(holds.hold(d.caller, item.id, until));
      expect([err.statusCode, err.code]).toEqual([400, code]);
      expect(err.message).toMatch(message);
    }
    // today and the last day allowed are fine
    await holds.hold(d.caller, item.id, dateIn('Pacific/Auckland', 0));
    await holds.hold(d.caller, item.id, dateIn('Pacific/Auckland', MAX_HOLD_DAYS));
    const [row] = await t.db.select().from(mailItems).where(eq(mailItems.id, item.id));
    expect(row!.heldUntil).not.toBeNull();
  });

  it('another recipient’s item, or another organization’s, is not found', async () => {
    const d = await desk();
    const theirs = await d.log(d.ben.id);
    const elsewhere = await desk();
    const foreign = await elsewhere.log(elsewhere.amara.id);
    for (const [caller, id] of [
      [d.caller, theirs.id],
      [d.caller, foreign.id],
      [{ organizationId: elsewhere.org.id, recipientId: d.amara.id }, theirs.id],
    ] as const) {
      const err = await refusal(holds.hold(caller, id, dateIn('UTC', 1)));
      expect([err.statusCode, err.message]).toEqual([404, 'Mail item not found']);
    }
    const rows = await t.db.select().from(mailItems).where(eq(mailItems.id, theirs.id));
    expect(rows[0]!.heldUntil).toBeNull();
  });

  it('an item already handed over: 409', async () => {
    const d = await desk();
    const item = await d.log(d.amara.id);
    await handedOver(d.admin, item.id);
    const err = await refusal(holds.hold(d.caller, item.id, dateIn('UTC', 1)));
    expect([err.statusCode, err.code]).toEqual([409, 'not_waiting']);
  });
});
