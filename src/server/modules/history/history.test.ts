import { beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { HISTORY_CSV_COLUMNS } from '../../../contract';
import { mailItemHistory, mailItems, organizations, recipients } from '../../db/schema';
import { handOverRequest } from '../../test/hand-over';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';
import { historyCsv } from './history.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

/** UTC+10 without daylight saving (POSIX names invert the sign), so day boundaries can be computed here. */
const TZ = 'Etc/GMT-10';
const OFFSET_MS = 10 * 3600_000;
const DAY = 24 * 3600_000;
const MIN = 60_000;
/** Today's date in the organization's timezone. */
const localDate = (daysAgo = 0) => new Date(Date.now() + OFFSET_MS - daysAgo * DAY).toISOString().slice(0, 10);
/** The instant of local midnight starting the day `daysAgo` days before today. */
const localMidnight = (daysAgo: number) => new Date(Date.parse(`${localDate(daysAgo)}T00:00:00Z`) - OFFSET_MS);

/** An organization in TZ with an admin and a member (selected), and two recipients. */
async function desk(timezone = TZ) {
  const admin = new Client(t);
  await admin.register();
  const org = await admin.createOrganization();
  await t.db.update(organizations).set({ timezone }).where(eq(organizations.id, org.id));
  const { client: member } = await joinAs(t, org.id);
  const [amara, ben] = await t.db
    .insert(recipients)
    .values([
      { organizationId: org.id, firstName: 'Amara', lastName: 'Okafor' },
      { organizationId: org.id, firstName: 'Ben', lastName: 'Stone' },
    ])
    .returning();
  return { admin, member, org, amara: amara!, ben: ben! };
}

type Seed = Partial<typeof mailItems.$inferInsert> & { arrivedAt: Date };
const seed = async (organizationId: string, items: Seed[]) =>
  t.db
    .insert(mailItems)
    .values(items.map((i) => ({ type: 'package', status: 'pending', ...i, organizationId })))
    .returning();

const qs = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

describe('GET /api/history and /api/history/stats: the filter', () => {
  let d: Awaited<ReturnType<typeof desk>>;
  let ids: Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f', string>;

  beforeAll(async () => {
    d = await desk();
    const m0 = localMidnight(0).getTime();
    const m6 = localMidnight(6).getTime();
    const rows = await seed(d.org.id, [
      // a: today (local), b: just before today's local midnight, c: first minute of the 7-day range,
      // d: just before it, e: 40 days ago, f: 200 days ago.
      {
        arrivedAt: new Date(m0 + MIN),
        trackingNumber: 'TRK-100%',
        sender: 'Amazon',
        recipientId: d.amara.id,
      },
      {
        arrivedAt: new Date(m0 - MIN),
        type: 'letter',
        status: 'delivered',
        deliveredAt: new Date(m0 + 30 * MIN),
        sender: 'FedEx Office',
        collectorName: 'Jon Doe',
      },
      { arrivedAt: new Date(m6 + MIN), status: 'notified', sender: 'UPS', trackingNumber: 'TRK_200' },
      {
        arrivedAt: new Date(m6 - MIN),
        status: 'delivered',
        deliveredAt: new Date(m6),
        recipientId: d.ben.id,
      },
      { arrivedAt: new Date(m0 - 40 * DAY), type: 'fragile', status: 'returned' },
      { arrivedAt: new Date(m0 - 200 * DAY), status: 'delivered', deliveredAt: new Date(m0 - 199 * DAY) },
    ]);
    const [a, b, c, dd, e, f] = rows.map((r) => r.id);
    ids = { a: a!, b: b!, c: c!, d: dd!, e: e!, f: f! };
    // Another organization's items match every filter below and must never show.
    const other = await desk();
    await seed(other.org.id, [
      { arrivedAt: new Date(m0 + 2 * MIN), sender: 'Amazon', trackingNumber: 'TRK-100%', status: 'delivered' },
      { arrivedAt: new Date(m0 - 300 * DAY), type: 'letter' },
    ]);
  });

  const list = async (params: Record<string, string | number> = {}) => {
    const res = await d.member.get(`/api/history?${qs(params)}`);
    expect(res.statusCode, res.body).toBe(200);
    const letters = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
    return {
      keys: res.json<Array<{ id: string }>>().map((i) => letters[i.id] ?? i.id),
      total: Number(res.headers['x-total-count']),
      body: res.json<Array<Record<string, unknown>>>(),
    };
  };
  const stats = async (params: Record<string, string | number> = {}) => {
    const res = await d.member.get(`/api/history/stats?${qs(params)}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it.each<[Record<string, string | number>, string[]]>([
    [{}, ['a', 'b', 'c']],
    [{ range: 1 }, ['a']],
    [{ range: 7 }, ['a', 'b', 'c']],
    [{ range: 30 }, ['a', 'b', 'c', 'd']],
    [{ range: 90 }, ['a', 'b', 'c', 'd', 'e']],
    [{ range: 0 }, ['a', 'b', 'c', 'd', 'e', 'f']],
    [{ range: 0, type: 'letter' }, ['b']],
    [{ range: 0, type: 'Package' }, ['a', 'c', 'd', 'f']],
    [{ range: 0, status: 'delivered' }, ['b', 'd', 'f']],
    [{ range: 0, status: 'NOTIFIED' }, ['c']],
    [{ range: 0, status: 'delivered', type: 'package' }, ['d', 'f']],
    [{ range: 7, status: 'delivered' }, ['b']],
    [{ range: 0, search: 'okafor' }, ['a']],
    [{ range: 0, search: 'amara oka' }, ['a']],
    [{ range: 0, search: 'ben stone' }, ['d']],
    [{ range: 0, search: 'fedex' }, ['b']],
    [{ range: 0, search: 'JON D' }, ['b']],
    [{ range: 0, search: 'trk' }, ['a', 'c']],
    [{ range: 0, search: '0%' }, ['a']],
    [{ range: 0, search: '%' }, ['a']],
    [{ range: 0, search: '_' }, ['c']],
    [{ range: 0, search: "'; drop table mail_items; --" }, []],
    [{ range: 1, search: 'ups' }, []],
    [{ range: 7, type: 'letter', status: 'delivered', search: 'jon' }, ['b']],
    // A date-only day is a whole day in the organization's timezone, and overrides the range.
    [{ range: 1, dateFrom: localDate(1), dateTo: localDate(1) }, ['b']],
    [{ dateFrom: localDate(0) }, ['a']],
    [{ range: 1, dateTo: localDate(1) }, ['b', 'c', 'd', 'e', 'f']],
    [{ dateFrom: localDate(6), dateTo: localDate(1) }, ['b', 'c']],
    // Date-times are taken as given.
    [{ dateFrom: new Date(localMidnight(0).getTime() - 30 * MIN).toISOString() }, ['a', 'b']],
    [{ dateTo: localMidnight(6).toISOString() }, ['d', 'e', 'f']],
  ])('%j lists %j newest first, with the total', async (params, expected) => {
    const { keys, total } = await list(params);
    expect(keys).toEqual(expected);
    expect(total).toBe(expected.length);
  });

  it('pages with limit and offset; the total covers the whole filter', async () => {
    const page = await list({ range: 0, limit: 2, offset: 2 });
    expect(page.keys).toEqual(['c', 'd']);
    expect(page.total).toBe(6);
    expect((await list({ range: 0, limit: 2, offset: 6 })).keys).toEqual([]);
  });

  it('answers full MailItem DTOs', async () => {
    const { body } = await list({ range: 1 });
    expect(body[0]).toMatchObject({
      id: ids.a,
      organizationId: d.org.id,
      trackingNumber: 'TRK-100%',
      status: 'pending',
      recipient: { id: d.amara.id, firstName: 'Amara', lastName: 'Okafor' },
      location: null,
      mailroom: null,
      photoUrl: null,
    });
  });

  it.each<[Record<string, string | number>, Record<string, number>]>([
    [{}, { totalItems: 3, delivered: 1, pending: 2, deliveryRate: 33 }],
    [{ range: 0 }, { totalItems: 6, delivered: 3, pending: 2, deliveryRate: 50 }],
    [
      { range: 0, limit: 1 },
      { totalItems: 6, delivered: 3, pending: 2, deliveryRate: 50 },
    ],
    [{ range: 30 }, { totalItems: 4, delivered: 2, pending: 2, deliveryRate: 50 }],
    [
      { range: 0, status: 'delivered' },
      { totalItems: 3, delivered: 3, pending: 0, deliveryRate: 100 },
    ],
    [
      { range: 0, type: 'fragile' },
      { totalItems: 1, delivered: 0, pending: 0, deliveryRate: 0 },
    ],
    [
      { range: 0, type: 'package' },
      { totalItems: 4, delivered: 2, pending: 2, deliveryRate: 50 },
    ],
    [
      { range: 90, search: 'trk' },
      { totalItems: 2, delivered: 0, pending: 2, deliveryRate: 0 },
    ],
    [{ range: 1 }, { totalItems: 1, delivered: 0, pending: 1, deliveryRate: 0 }],
    [
      { range: 0, search: 'nothing matches' },
      { totalItems: 0, delivered: 0, pending: 0, deliveryRate: 0 },
    ],
    [
      { dateFrom: localDate(1), dateTo: localDate(1) },
      { totalItems: 1, delivered: 1, pending: 0, deliveryRate: 100 },
    ],
  ])('stats %j = %j', async (params, expected) => {
    const body = await stats(params);
    expect(body).toEqual(expected);
  });

  it('rounds the delivery rate to a whole percent (2 of 3 = 67)', async () => {
    const x = await desk('UTC');
    await seed(x.org.id, [
      { arrivedAt: new Date(), status: 'delivered' },
      { arrivedAt: new Date(), status: 'delivered' },
      { arrivedAt: new Date(), status: 'returned' },
    ]);
    const res = await x.member.get('/api/history/stats');
    expect(res.json()).toEqual({ totalItems: 3, delivered: 2, pending: 0, deliveryRate: 67 });
  });

  it("never shows another organization's items, with any filter", async () => {
    const filters: Array<Record<string, string | number>> = [
      { range: 0 },
      { range: 0, search: 'amazon' },
      { range: 0, type: 'letter' },
    ];
    for (const params of filters) {
      const res = await d.admin.get(`/api/history?${qs(params)}`);
      expect(res.json<Array<{ organizationId: string }>>().every((i) => i.organizationId === d.org.id)).toBe(true);
    }
    expect((await list({ range: 0, search: 'amazon' })).keys).toEqual(['a']);
    const csv = await d.admin.get('/api/history/export?range=0');
    expect(csv.body.trim().split('\r\n')).toHaveLength(7);
  });

  it.each<[string, string]>([
    ['dateFrom=yesterday', 'dateFrom must be an ISO date or date-time'],
    ['dateFrom=2026-13-01', 'dateFrom must be an ISO date or date-time'],
    ['dateTo=2026-02-30T10:00', 'dateTo must be an ISO date or date-time'],
    ['dateFrom=2026-05-02&dateTo=2026-05-01', 'dateFrom must not be after dateTo'],
    ['dateFrom=2026-05-02T10:00:00Z&dateTo=2026-05-02T09:00:00Z', 'dateFrom must not be after dateTo'],
    ['range=3', 'range must be 1, 7, 30, 90 or 0 (all time)'],
    ['range=all', 'range must be 1, 7, 30, 90 or 0 (all time)'],
    ['type=spaceship', 'Unknown package type: spaceship'],
    ['status=lost', 'Unknown status: lost'],
    ['search=' + 'x'.repeat(201), 'search must be at most 200 characters'],
  ])('answers 400 to %s on every endpoint: %s', async (query, message) => {
    for (const path of ['/api/history', '/api/history/stats', '/api/history/export']) {
      const res = await d.member.get(`${path}?${query}`);
      expect(res.statusCode, `${path} ${res.body}`).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });

  it.each<[string, string]>([
    ['limit=0', 'limit must be at least 1'],
    ['limit=201', 'limit must be at most 200'],
    ['limit=abc', 'limit must be a number'],
    ['limit=1.5', 'limit must be a whole number'],
    ['offset=-1', 'offset must be 0 or more'],
  ])('answers 400 to %s on the list: %s', async (query, message) => {
    const res = await d.member.get(`/api/history?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('answers 401 signed out and 403 to a non-member, on every endpoint', async () => {
    const anon = new Client(t);
    anon.organizationId = d.org.id;
    const outsider = new Client(t);
    await outsider.register();
    await outsider.createOrganization('Elsewhere');
    outsider.organizationId = d.org.id;
    for (const path of ['/api/history', '/api/history/stats', '/api/history/export']) {
      expect((await anon.get(path)).statusCode).toBe(401);
      const res = await outsider.get(path);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('Amazon');
    }
  });
});

describe('GET /api/history/export', () => {
  it('answers the filtered rows as RFC 4180 CSV with formulas neutralised', async () => {
    const d = await desk();
    const [zoe] = await t.db
      .insert(recipients)
      .values({ organizationId: d.org.id, firstName: 'Zoë', lastName: 'O"Neil, Jr' })
      .returning();
    await seed(d.org.id, [
      {
        arrivedAt: new Date('2026-01-02T03:04:05Z'),
        sender: '=HYPERLINK("http://evil.example","click")',
        trackingNumber: '+15551234',
        recipientId: zoe!.id,
        status: 'delivered',
        deliveredAt: new Date('2026-01-02T20:30:00Z'),
      },
      { arrivedAt: new Date('2026-01-01T12:00:00Z'), type: 'letter', sender: 'Line 1\nLine 2', trackingNumber: '-5' },
      { arrivedAt: new Date('2026-01-01T11:00:00Z'), sender: '@SUM(A1)', trackingNumber: '\tTAB', status: 'notified' },
      { arrivedAt: new Date('2026-01-01T10:00:00Z'), sender: 'Acme, Inc.', recipientId: d.amara.id },
      // Outside the range below.
      { arrivedAt: new Date('2025-12-31T13:59:00Z'), sender: 'too early' },
    ]);
    const res = await d.member.get('/api/history/export?dateFrom=2026-01-01&dateTo=2026-01-02');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="mailroom-history-${localDate(0)}.csv"`);
    expect(res.body).toBe(
      [
        HISTORY_CSV_COLUMNS.join(','),
        // delivered without a recorded collector: the export says so (issue 41 item 6)
        `2026-01-02 13:04,package,"Zoë O""Neil, Jr","'=HYPERLINK(""http://evil.example"",""click"")",'+15551234,delivered,2026-01-03 06:30,Collector not recorded,,`,
        `2026-01-01 22:00,letter,,"Line 1\nLine 2",'-5,pending,,,,`,
        `2026-01-01 21:00,package,,'@SUM(A1),'\tTAB,notified,,,,`,
        `2026-01-01 20:00,package,Amara Okafor,"Acme, Inc.",,pending,,,,`,
        '',
      ].join('\r\n'),
    );
  });

  it('answers only the header row for an empty filter, and the file name uses today in the org timezone', async () => {
    const d = await desk('Pacific/Kiritimati');
    const res = await d.member.get('/api/history/export?range=1');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`${HISTORY_CSV_COLUMNS.join(',')}\r\n`);
    const today = new Date(Date.now() + 14 * 3600_000).toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="mailroom-history-${today}.csv"`);
  });

  it('walks keyset batches without skipping or repeating rows that share an arrival time to the microsecond', async () => {
    const d = await desk('UTC');
    // 25 rows over 5 arrival instants that differ only in microseconds.
    await t.db.execute(sql`
      insert into mail_items (organization_id, type, status, tracking_number, arrived_at)
      select ${d.org.id}::uuid, 'package', 'pending', 'T' || i,
             '2026-03-01 10:00:00.123456+00'::timestamptz + make_interval(secs => (i % 5) / 1000000.0)
      from generate_series(1, 25) as i`);
    const expected = (
      await t.db.execute<{ tracking_number: string }>(sql`
        select tracking_number from mail_items where organization_id = ${d.org.id}
        order by arrived_at desc, id desc`)
    ).rows.map((r) => r.tracking_number);
    for (const batch of [1, 4, 5, 24, 25, 26]) {
      let text = '';
      for await (const chunk of historyCsv(t.db, d.org.id, { filters: {}, timezone: 'UTC' }, batch)) text += chunk;
      const lines = text.split('\r\n').slice(1, -1);
      expect(lines.map((l) => l.split(',')[4])).toEqual(expected);
    }
  });

  it('streams 20,000 rows in batches with modest memory', { timeout: 30_000 }, async () => {
    const d = await desk('UTC');
    const other = await desk('UTC');
    for (const org of [d.org.id, other.org.id]) {
      await t.db.execute(sql`
        insert into mail_items (organization_id, type, status, sender, tracking_number, arrived_at, recipient_id)
        select ${org}::uuid, 'package', case when i % 3 = 0 then 'delivered' else 'pending' end,
               'Sender, "number" ' || i, '=TRK' || i,
               now() - make_interval(secs => i), case when i % 2 = 0 then ${d.amara.id}::uuid end
        from generate_series(1, 20000) as i`);
    }
    const started = Date.now();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/history/export?range=0',
      headers: { cookie: d.member.cookie!, 'x-organization-id': d.org.id },
      payloadAsStream: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    let lines = 0;
    let chunks = 0;
    let tail = '';
    for await (const chunk of res.stream()) {
      chunks += 1;
      const text = tail + String(chunk);
      const parts = text.split('\r\n');
      tail = parts.pop()!;
      lines += parts.length;
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(tail).toBe('');
    expect(lines).toBe(20_001);
    // One write per 2,000-row batch plus the header: the body was never built whole.
    expect(chunks).toBeGreaterThanOrEqual(11);
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The other organization's 20,000 rows stayed out; the stats agree with the export.
    const s = await d.member.get('/api/history/stats?range=0');
    expect(s.json()).toEqual({ totalItems: 20_000, delivered: 6_666, pending: 13_334, deliveryRate: 33 });
  });
});

describe('history rows are append-only', () => {
  const snapshot = (organizationId: string) =>
    t.db
      .select()
      .from(mailItemHistory)
      .where(eq(mailItemHistory.organizationId, organizationId))
      .orderBy(asc(mailItemHistory.seq));

  it('no mail-item call changes or removes an earlier row, and deleting an item keeps its rows', async () => {
    const d = await desk('UTC');
    let previous = await snapshot(d.org.id);
    expect(previous).toEqual([]);

    /** Runs a call, checks its status, and that every earlier row is still there, unchanged. */
    const step = async (call: () => Promise<{ statusCode: number; body: string }>, status: number, added: number) => {
      const res = await call();
      expect(res.statusCode, res.body).toBe(status);
      const now = await snapshot(d.org.id);
      expect(now.slice(0, previous.length)).toEqual(previous);
      expect(now).toHaveLength(previous.length + added);
      previous = now;
      return res;
    };

    const created = await step(() => d.member.post('/api/mail-items', { type: 'package', sender: 'Amazon' }), 201, 1);
    const id = JSON.parse(created.body).id as string;
    const other = JSON.parse((await step(() => d.admin.post('/api/mail-items', { type: 'letter' }), 201, 1)).body)
      .id as string;

    await step(() => d.member.put(`/api/mail-items/${id}`, { sender: 'Amazon EU', notes: 'Fragile' }), 200, 1);
    await step(() => d.member.put(`/api/mail-items/${id}`, { status: 'notified' }), 200, 1);
    await step(() => handOverRequest(d.member, id, { collectorName: 'Jon' }), 201, 1);
    await step(() => d.member.put(`/api/mail-items/${id}`, { sender: 'Edited after delivery' }), 409, 0);
    await step(() => d.admin.put(`/api/mail-items/${id}`, { status: 'pending' }), 200, 1);
    await step(() => d.admin.put(`/api/mail-items/${id}`, { status: 'returned' }), 200, 1);
    await step(() => d.admin.put(`/api/mail-items/${id}`, { type: 'spaceship' }), 400, 0);
    await step(() => d.admin.put(`/api/mail-items/${id}`, { notifiedAt: null, deliveredAt: null }), 200, 0);
    await step(() => d.member.get(`/api/mail-items/${id}/history`), 200, 0);
    await step(() => d.member.get('/api/history?range=0'), 200, 0);
    await step(() => d.member.get('/api/history/export?range=0'), 200, 0);

    await step(() => d.member.delete(`/api/mail-items/${other}`), 204, 1);
    await step(() => d.member.post(`/api/mail-items/${id}/delete`), 204, 1);
    await step(() => d.member.delete(`/api/mail-items/${id}`), 404, 0);
    await step(() => d.member.put(`/api/mail-items/${id}`, { status: 'pending' }), 404, 0);

    expect(previous.map((r) => [r.mailItemId === id ? 'item' : 'other', r.action])).toEqual([
      ['item', 'created'],
      ['other', 'created'],
      ['item', 'updated'],
      ['item', 'notified'],
      ['item', 'delivered'],
      ['item', 'status_changed'],
      ['item', 'returned'],
      ['other', 'deleted'],
      ['item', 'deleted'],
    ]);
    // The deleted item's timeline is still readable through the API.
    const timeline = await d.member.get(`/api/mail-items/${id}/history`);
    expect(timeline.statusCode).toBe(200);
    expect(timeline.json<Array<{ id: string }>>().map((r) => r.id)).toEqual(
      previous.filter((r) => r.mailItemId === id).map((r) => r.id),
    );
    expect(await t.db.select().from(mailItems).where(eq(mailItems.organizationId, d.org.id))).toEqual([]);
  });
});
