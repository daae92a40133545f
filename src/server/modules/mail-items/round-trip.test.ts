import { beforeAll, describe, expect, it } from 'vitest';
import { eq, getTableColumns, type Column } from 'drizzle-orm';
import sharp from 'sharp';
import { CreateMailItemBody, MailItemSummary } from '../../../contract';
import { mailItemHistory, mailItems, mailroomLocations, mailrooms, photos, recipients } from '../../db/schema';
import { handedOver } from '../../test/hand-over';
import { Client, createTestApp, type TestApp } from '../../test/harness';

/**
 * Every column of a mail item, through intake, edit and the list, against the row in the
 * database. The columns are enumerated from the schema: a new field of the intake form (a text
 * column in the contract's body) is sent, edited and expected back with no change here; any
 * other new column fails until it is given a case below.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

type Row = typeof mailItems.$inferSelect;
type Key = keyof Row;
type Reply = Record<string, unknown>;
const COLUMNS = getTableColumns(mailItems) as Record<Key, Column>;
const KEYS = Object.keys(COLUMNS) as Key[];
const BODY_KEYS = new Set(Object.keys(CreateMailItemBody.shape));
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What the database holds for a column, as the reply shows it. */
const asReply = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

async function desk() {
  const admin = new Client(t);
  const { user } = await admin.register();
  const org = await admin.createOrganization();
  const [alice, bob] = await t.db
    .insert(recipients)
    .values([
      { organizationId: org.id, firstName: 'Alice', lastName: 'Ng', email: 'alice@example.com', unit: '1A' },
      { organizationId: org.id, firstName: 'Bob', lastName: 'Oduya', phone: '+15551230000', department: 'Ops' },
    ])
    .returning();
  const [lobby, annex] = await t.db
    .insert(mailrooms)
    .values([
      { organizationId: org.id, name: 'Lobby' },
      { organizationId: org.id, name: 'Annex' },
    ])
    .returning();
  const [shelf, locker] = await t.db
    .insert(mailroomLocations)
    .values([
      { organizationId: org.id, mailroomId: lobby!.id, name: 'Shelf A', type: 'shelf' },
      { organizationId: org.id, mailroomId: annex!.id, name: 'Locker 3', type: 'locker' },
    ])
    .returning();
  return {
    admin,
    userId: user.id,
    org,
    alice: alice!,
    bob: bob!,
    lobby: lobby!,
    annex: annex!,
    shelf: shelf!,
    locker: locker!,
  };
}
type Desk = Awaited<ReturnType<typeof desk>>;

/**
 * The value a form field is sent with at intake (round 1) and edit (round 2). Text columns of the
 * contract's body get a value of their own, within the column's length; the others say theirs.
 */
const CHOSEN_FIELDS: Partial<Record<Key, (d: Desk, round: 1 | 2) => unknown>> = {
  type: (_d, round) => (round === 1 ? 'package' : 'letter'),
  recipientId: (d, round) => (round === 1 ? d.alice.id : d.bob.id),
  locationId: (d, round) => (round === 1 ? d.shelf.id : d.locker.id),
  mailroomId: (d, round) => (round === 1 ? d.lobby.id : d.annex.id),
};
const isText = (key: Key) => /^(varchar|text)/.test(COLUMNS[key].getSQLType());

function fieldValue(d: Desk, key: Key, round: 1 | 2): unknown {
  const chosen = CHOSEN_FIELDS[key];
  if (chosen) return chosen(d, round);
  const type = COLUMNS[key].getSQLType();
  if (!isText(key)) throw new Error(`No round-trip value for the form field mail_items.${COLUMNS[key].name} (${type})`);
  const length = Number(/\((\d+)\)/.exec(type)?.[1] ?? 1000);
  return `${key} ${round}`.slice(0, length);
}

/**
 * How a column that is not a form field shows in a reply, after intake, edit, notify and
 * delivery. A column of the schema missing here (and not a form field) fails the test.
 */
const SERVER_COLUMNS: Record<
  Exclude<Key, keyof typeof CreateMailItemBody.shape>,
  (reply: Reply, d: Desk, stage: 'intake' | 'edit' | 'notified' | 'delivered') => void
> = {
  id: (r) => expect(r.id).toMatch(UUID),
  organizationId: (r, d) => expect(r.organizationId).toBe(d.org.id),
  status: (r, _d, stage) => expect(r.status).toBe(stage === 'notified' || stage === 'delivered' ? stage : 'pending'),
  notifiedAt: (r, _d, stage) =>
    stage === 'notified' || stage === 'delivered' ? expect(r.notifiedAt).toMatch(ISO) : expect(r.notifiedAt).toBeNull(),
  deliveredAt: (r, _d, stage) =>
    stage === 'delivered' ? expect(r.deliveredAt).toMatch(ISO) : expect(r.deliveredAt).toBeNull(),
  handedOverBy: (r, d, stage) => expect(r.handedOverBy).toBe(stage === 'delivered' ? d.userId : null),
  // Marked delivered without a hand-over's proof (pickups.test.ts covers the proof).
  handoverId: (r, _d, stage) =>
    stage === 'delivered' ? expect(r.handoverId).toMatch(UUID) : expect(r.handoverId).toBeNull(),
  // Held only at the recipient's request, on their own page (holds.test.ts).
  heldUntil: (r) => expect(r.heldUntil).toBeNull(),
  // No one expects the round trip's tracking number (expected-packages.test.ts covers a match).
  expectedPackageId: (r) => expect(r.expectedPackageId).toBeNull(),
  // One more with every write (decision 044): intake, edit, the worker's notified, the delivery.
  revision: (r, _d, stage) => expect(r.revision).toBe({ intake: 1, edit: 2, notified: 3, delivered: 4 }[stage]),
  photoId: (r) => {
    expect(r.photoUrl).toMatch(/^\/api\/photos\/[0-9a-f-]{36}$/);
    expect(r.thumbnailUrl).toBe(`${r.photoUrl as string}/thumbnail`);
  },
  createdBy: (r, d) => expect(r.createdBy).toBe(d.userId),
  arrivedAt: (r) => expect(r.arrivedAt).toMatch(ISO),
  createdAt: (r) => expect(r.createdAt).toMatch(ISO),
  updatedAt: (r) => expect(r.updatedAt).toMatch(ISO),
};

/** The form's fields, in the contract's order (the order an `updated` history row names them in). */
const FIELD_KEYS = [...BODY_KEYS].filter((k): k is Key => k in COLUMNS);

/** Every column of the reply against the expectations, and against the row in the database. */
async function expectEveryColumn(reply: Reply, d: Desk, stage: 'intake' | 'edit' | 'notified' | 'delivered') {
  const [row] = await t.db
    .select()
    .from(mailItems)
    .where(eq(mailItems.id, reply.id as string));
  expect(row, 'the row in the database').toBeDefined();
  for (const key of KEYS) {
    if (FIELD_KEYS.includes(key)) {
      expect(reply[key], `${key} after ${stage}`).toEqual(fieldValue(d, key, stage === 'intake' ? 1 : 2));
    } else {
      const check = SERVER_COLUMNS[key as keyof typeof SERVER_COLUMNS];
      if (!check) throw new Error(`No round-trip case for mail_items.${COLUMNS[key].name}: add one`);
      check(reply, d, stage);
    }
    // The reply shows what the database holds, column by column.
    if (key === 'photoId') expect(reply.photoUrl).toBe(`/api/photos/${row!.photoId}`);
    else expect(reply[key], `${key} as stored`).toEqual(asReply(row![key]));
  }
}

/** The item as the list and the single read show it: the same reply as the write's. */
async function expectListed(d: Desk, reply: Reply) {
  const list = await d.admin.get('/api/mail-items?limit=500');
  expect(list.statusCode).toBe(200);
  const listed = (list.json() as Reply[]).find((i) => i.id === reply.id);
  expect(listed).toEqual(reply);
  const one = await d.admin.get(`/api/mail-items/${reply.id as string}`);
  expect(one.json()).toEqual(reply);
  // The list row (view=summary): the reply's values for the keys a row carries, and no others.
  const rows = await d.admin.get('/api/mail-items?limit=500&view=summary');
  expect(rows.statusCode).toBe(200);
  const row = (rows.json() as Reply[]).find((i) => i.id === reply.id);
  expect(row).toEqual(MailItemSummary.parse(reply));
  expect(Object.keys(row!)).toEqual(Object.keys(MailItemSummary.shape));
}

const photo = async (color: string) =>
  'data:image/png;base64,' +
  (
    await sharp({ create: { width: 32, height: 24, channels: 3, background: color } })
      .png()
      .toBuffer()
  ).toString('base64');

describe('every column of a mail item', () => {
  it('has a round-trip case: a form field of the contract or a server column above', () => {
    for (const key of KEYS) {
      if (BODY_KEYS.has(key))
        expect(key in CHOSEN_FIELDS || isText(key), `a value for mail_items.${COLUMNS[key].name}`).toBe(true);
      else expect(SERVER_COLUMNS, `a case for mail_items.${COLUMNS[key].name}`).toHaveProperty(key);
    }
  });

  it('goes through intake, edit, notify, delivery and the list unchanged, and delete keeps its history', async () => {
    const d = await desk();
    // Intake: every form field, and a photo.
    const body = Object.fromEntries(FIELD_KEYS.map((k) => [k, fieldValue(d, k, 1)]));
    const created = await d.admin.post('/api/mail-items', { ...body, photoData: await photo('#3366ff') });
    expect(created.statusCode).toBe(201);
    await expectEveryColumn(created.json(), d, 'intake');
    expect(created.json()).toMatchObject({
      recipient: { id: d.alice.id, firstName: 'Alice', lastName: 'Ng', email: 'alice@example.com', unit: '1A' },
      location: { id: d.shelf.id, name: 'Shelf A', mailroomName: 'Lobby' },
      mailroom: { id: d.lobby.id, name: 'Lobby' },
    });
    await expectListed(d, created.json());
    const id = created.json().id as string;

    // Edit: every form field changed, and a new photo.
    const edits = Object.fromEntries(FIELD_KEYS.map((k) => [k, fieldValue(d, k, 2)]));
    const edited = await d.admin.put(`/api/mail-items/${id}`, { ...edits, photoData: await photo('#ff6633') });
    expect(edited.statusCode).toBe(200);
    await expectEveryColumn(edited.json(), d, 'edit');
    expect(edited.json().photoUrl).not.toBe(created.json().photoUrl);
    expect(edited.json()).toMatchObject({
      recipient: { id: d.bob.id, phone: '+15551230000', department: 'Ops' },
      location: { id: d.locker.id, name: 'Locker 3', mailroomName: 'Annex' },
      mailroom: { id: d.annex.id, name: 'Annex' },
    });
    await expectListed(d, edited.json());
    const changed = FIELD_KEYS.filter((k) => fieldValue(d, k, 1) !== fieldValue(d, k, 2));
    const history = async () =>
      t.db.select().from(mailItemHistory).where(eq(mailItemHistory.mailItemId, id)).orderBy(mailItemHistory.seq);
    expect((await history()).at(-1)!.notes).toBe(`Changed: ${[...changed, 'photo'].join(', ')}`);

    // Status changes: the columns the server sets.
    const notified = await d.admin.put(`/api/mail-items/${id}`, { status: 'notified' });
    await expectEveryColumn(notified.json(), d, 'notified');
    await expectListed(d, notified.json());
    // The hand-over names the collector: the edit's value, so every column reads as before.
    await handedOver(d.admin, id, { collectorName: String(fieldValue(d, 'collectorName', 2)) });
    const delivered = await d.admin.get(`/api/mail-items/${id}`);
    await expectEveryColumn(delivered.json(), d, 'delivered');
    await expectListed(d, delivered.json());
    expect((await history()).map((h) => h.action)).toEqual(['created', 'updated', 'notified', 'delivered']);

    // Delete: the row and its photo go, the history stays with a deleted row.
    const photoId = (await t.db.select().from(mailItems).where(eq(mailItems.id, id)))[0]!.photoId!;
    expect((await d.admin.delete(`/api/mail-items/${id}`)).statusCode).toBe(204);
    expect(await t.db.select().from(mailItems).where(eq(mailItems.id, id))).toEqual([]);
    expect(await t.db.select({ id: photos.id }).from(photos).where(eq(photos.id, photoId))).toEqual([]);
    expect((await history()).at(-1)).toMatchObject({
      action: 'deleted',
      previousStatus: 'delivered',
      newStatus: null,
      performedBy: d.userId,
    });
  });

  it('is listed as PostgreSQL builds the reply: no photo, no relations, a mailroom alone, overdue', async () => {
    const d = await desk();
    const bare = await d.admin.post('/api/mail-items', { type: 'letter' });
    const inMailroom = await d.admin.post('/api/mail-items', { type: 'package', mailroomId: d.annex.id });
    expect([bare.statusCode, inMailroom.statusCode]).toEqual([201, 201]);
    expect(bare.json()).toMatchObject({ photoUrl: null, recipient: null, location: null, mailroom: null });
    expect(inMailroom.json()).toMatchObject({ location: null, mailroom: { id: d.annex.id, name: 'Annex' } });
    await expectListed(d, bare.json());
    await expectListed(d, inMailroom.json());
    // 73 hours waiting: overdue in the list as in the single read (toMailItemDto).
    await t.db
      .update(mailItems)
      .set({ arrivedAt: new Date(Date.now() - 73 * 3600_000) })
      .where(eq(mailItems.id, bare.json().id as string));
    t.forgetEverything(); // written behind the service's back: its cached lists do not know
    const overdue = (await d.admin.get(`/api/mail-items/${bare.json().id as string}`)).json();
    expect(overdue.isOverdue).toBe(true);
    await expectListed(d, overdue);
  });
});
