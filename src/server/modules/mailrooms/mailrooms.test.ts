import { beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { LOCATION_NOT_EMPTY, MAILROOM_NOT_EMPTY } from '../../../contract';
import { mailItems, mailroomLocations, mailrooms } from '../../db/schema';
import { adminAndMember, Client, createTestApp, type TestApp } from '../../test/harness';
import { everyMailroomWrite } from '../../test/mailroom-writes';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

type MailroomDto = { id: string; name: string; locationCount: number };
type LocationDto = { id: string; name: string; mailroomName: string; currentCount: number; isFull: boolean };

const setup = () => adminAndMember(t);

async function createMailroom(c: Client, name = 'Main Lobby') {
  const res = await c.post('/api/mailrooms', { name });
  expect(res.statusCode).toBe(201);
  return res.json<MailroomDto>();
}

async function createLocation(c: Client, mailroomId: string, body: Record<string, unknown> = {}) {
  const res = await c.post('/api/mailroom-locations', { name: 'Shelf A', type: 'shelf', mailroomId, ...body });
  expect(res.statusCode).toBe(201);
  return res.json<LocationDto & { capacity: number }>();
}

/** Puts items straight into the table, as mail intake would (a location's count is read from them). */
async function fill(
  organizationId: string,
  where: { locationId?: string; mailroomId?: string },
  statuses: string[],
): Promise<string[]> {
  const rows = await t.db
    .insert(mailItems)
    .values(statuses.map((status) => ({ organizationId, type: 'package', status, ...where })))
    .returning({ id: mailItems.id });
  return rows.map((r) => r.id);
}

async function mailroomRow(id: string) {
  const [row] = await t.db.select().from(mailrooms).where(eq(mailrooms.id, id));
  return row;
}
async function locationRow(id: string) {
  const [row] = await t.db.select().from(mailroomLocations).where(eq(mailroomLocations.id, id));
  return row;
}

describe('mailrooms', () => {
  it('creates, lists by name with location counts, updates and deletes', async () => {
    const { admin, org } = await setup();
    const res = await admin.post('/api/mailrooms', { name: '  West Wing ', description: '' });
    expect(res.statusCode).toBe(201);
    const west = res.json();
    expect(west).toMatchObject({
      organizationId: org.id,
      name: 'West Wing',
      description: null,
      isActive: true,
      locationCount: 0,
    });
    expect(new Date(west.createdAt).toISOString()).toBe(west.createdAt);
    const east = await createMailroom(admin, 'east Wing');
    await createMailroom(admin, 'Annex');
    await createLocation(admin, east.id, { name: 'Bin 1' });
    await createLocation(admin, east.id, { name: 'Bin 2' });

    const list = (await admin.get('/api/mailrooms')).json<MailroomDto[]>();
    expect(list.map((m) => [m.name, m.locationCount])).toEqual([
      ['Annex', 0],
      ['east Wing', 2],
      ['West Wing', 0],
    ]);

    const updated = await admin.put(`/api/mailrooms/${west.id}`, { description: 'By the gate', isActive: false });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'West Wing', description: 'By the gate', isActive: false });
    const renamed = (await admin.put(`/api/mailrooms/${east.id}`, { name: 'East Wing' })).json();
    expect(renamed).toMatchObject({ name: 'East Wing', locationCount: 2 });

    expect((await admin.delete(`/api/mailrooms/${west.id}`)).statusCode).toBe(204);
    expect(await mailroomRow(west.id)).toBeUndefined();
    expect((await admin.delete(`/api/mailrooms/${west.id}`)).statusCode).toBe(404);
  });

  it.each([
    [{}, 'Mailroom name is required'],
    [{ name: '   ' }, 'Mailroom name is required'],
    [{ name: 7 }, 'Mailroom name is required'],
    [{ name: 'x'.repeat(256) }, 'Mailroom name must be less than 255 characters'],
    [{ name: 'Ok', description: 'd'.repeat(1001) }, 'Description must be less than 1000 characters'],
  ])('refuses %o with 400 and writes nothing', async (body, message) => {
    const { admin, org } = await setup();
    const res = await admin.post('/api/mailrooms', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await t.db.select().from(mailrooms).where(eq(mailrooms.organizationId, org.id))).toEqual([]);
  });

  it('validates updates and changes nothing on error', async () => {
    const { admin } = await setup();
    const room = await createMailroom(admin);
    const res = await admin.put(`/api/mailrooms/${room.id}`, { name: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Mailroom name is required');
    expect((await mailroomRow(room.id))!.name).toBe('Main Lobby');
  });

  it('refuses deleting a mailroom that has storage locations', async () => {
    const { admin } = await setup();
    const room = await createMailroom(admin);
    const loc = await createLocation(admin, room.id);
    const res = await admin.delete(`/api/mailrooms/${room.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: MAILROOM_NOT_EMPTY, code: 'mailroom_not_empty' });
    expect(await mailroomRow(room.id)).toBeDefined();
    expect((await admin.delete(`/api/mailroom-locations/${loc.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/mailrooms/${room.id}`)).statusCode).toBe(204);
  });

  it('refuses deleting a mailroom holding items; delivered and returned ones do not count and keep their rows', async () => {
    const { admin, org } = await setup();
    const room = await createMailroom(admin);
    const [held] = await fill(org.id, { mailroomId: room.id }, ['notified']);
    const done = await fill(org.id, { mailroomId: room.id }, ['delivered', 'returned']);
    const res = await admin.delete(`/api/mailrooms/${room.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('mailroom_not_empty');

    await t.db.update(mailItems).set({ status: 'delivered' }).where(eq(mailItems.id, held!));
    expect((await admin.delete(`/api/mailrooms/${room.id}`)).statusCode).toBe(204);
    const items = await t.db
      .select({ mailroomId: mailItems.mailroomId })
      .from(mailItems)
      .where(inArray(mailItems.id, [held!, ...done]));
    expect(items).toEqual([{ mailroomId: null }, { mailroomId: null }, { mailroomId: null }]);
  });
});

describe('storage locations', () => {
  it('creates with defaults and lists by mailroom name then location name, with mailroomName and isFull', async () => {
    const { admin, org } = await setup();
    const lobby = await createMailroom(admin, 'Lobby');
    const annex = await createMailroom(admin, 'Annex');
    const res = await admin.post('/api/mailroom-locations', {
      name: ' Locker 9 ',
      type: 'locker',
      mailroomId: lobby.id,
      notes: '',
    });
    expect(res.statusCode).toBe(201);
    const locker = res.json();
    expect(locker).toMatchObject({
      organizationId: org.id,
      mailroomId: lobby.id,
      mailroomName: 'Lobby',
      name: 'Locker 9',
      type: 'locker',
      capacity: 20,
      currentCount: 0,
      isFull: false,
      isActive: true,
      notes: null,
    });
    const bin = await createLocation(admin, lobby.id, { name: 'Bin', type: 'bin', capacity: '2', notes: 'Small' });
    expect(bin).toMatchObject({ capacity: 2, notes: 'Small' });
    const cabinet = await createLocation(admin, annex.id, { name: 'Cabinet', type: 'cabinet' });

    await fill(org.id, { locationId: bin.id }, ['pending', 'notified', 'delivered']);
    const list = (await admin.get('/api/mailroom-locations')).json<LocationDto[]>();
    expect(list.map((l) => `${l.mailroomName}/${l.name}`)).toEqual(['Annex/Cabinet', 'Lobby/Bin', 'Lobby/Locker 9']);
    expect(list[1]).toMatchObject({ currentCount: 2, isFull: true });
    expect(list[2]).toMatchObject({ currentCount: 0, isFull: false });

    const onlyAnnex = (await admin.get(`/api/mailroom-locations?mailroomId=${annex.id}`)).json<LocationDto[]>();
    expect(onlyAnnex.map((l) => l.id)).toEqual([cabinet.id]);
    const bad = await admin.get('/api/mailroom-locations?mailroomId=nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Invalid mailroom id');
  });

  it.each([
    [{ name: '' }, 'Location name is required'],
    [{ name: undefined }, 'Location name is required'],
    [{ type: undefined }, 'Type is required'],
    [{ type: 'drawer' }, 'Type is required'],
    [{ capacity: 0 }, 'Capacity must be at least 1'],
    [{ capacity: -3 }, 'Capacity must be at least 1'],
    [{ capacity: 'lots' }, 'Capacity must be at least 1'],
    [{ capacity: 2.5 }, 'Capacity must be a whole number'],
    [{ mailroomId: undefined }, 'Mailroom is required'],
    [{ mailroomId: '' }, 'Mailroom is required'],
  ])('refuses %o with 400 and writes nothing', async (override, message) => {
    const { admin, org } = await setup();
    const room = await createMailroom(admin);
    const res = await admin.post('/api/mailroom-locations', {
      name: 'Shelf A',
      type: 'shelf',
      mailroomId: room.id,
      ...override,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await t.db.select().from(mailroomLocations).where(eq(mailroomLocations.organizationId, org.id))).toEqual([]);
  });

  it("answers 404 'Mailroom not found' for an unknown or another organization's mailroom", async () => {
    const { admin, org } = await setup();
    const stranger = new Client(t);
    await stranger.register();
    await stranger.createOrganization('Elsewhere');
    const theirs = await createMailroom(stranger, 'Their Room');
    for (const mailroomId of [theirs.id, '7f1c2a54-9d35-4b8e-a0a4-3c4b5d6e7f80']) {
      const res = await admin.post('/api/mailroom-locations', { name: 'Sneaky', type: 'bin', mailroomId });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Mailroom not found');
    }
    expect(await t.db.select().from(mailroomLocations).where(eq(mailroomLocations.organizationId, org.id))).toEqual([]);
    expect(await t.db.select().from(mailroomLocations).where(eq(mailroomLocations.mailroomId, theirs.id))).toEqual([]);
  });

  it('updates only the given fields (a rename keeps the capacity) and moves between own mailrooms', async () => {
    const { admin } = await setup();
    const lobby = await createMailroom(admin, 'Lobby');
    const annex = await createMailroom(admin, 'Annex');
    const loc = await createLocation(admin, lobby.id, { capacity: 50, notes: 'Top' });

    const renamed = await admin.put(`/api/mailroom-locations/${loc.id}`, { name: 'Shelf B' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Shelf B', capacity: 50, type: 'shelf', notes: 'Top' });

    const moved = await admin.put(`/api/mailroom-locations/${loc.id}`, {
      mailroomId: annex.id,
      type: 'cabinet',
      notes: null,
      isActive: false,
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      mailroomId: annex.id,
      mailroomName: 'Annex',
      type: 'cabinet',
      notes: null,
      isActive: false,
      capacity: 50,
    });
    const rooms = (await admin.get('/api/mailrooms')).json<MailroomDto[]>();
    expect(rooms.map((m) => [m.name, m.locationCount])).toEqual([
      ['Annex', 1],
      ['Lobby', 0],
    ]);

    for (const [body, message] of [
      [{ name: '' }, 'Location name is required'],
      [{ type: 'drawer' }, 'Type is required'],
      [{ capacity: 0 }, 'Capacity must be at least 1'],
      [{ mailroomId: null }, 'Mailroom is required'],
    ] as const) {
      const res = await admin.put(`/api/mailroom-locations/${loc.id}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await locationRow(loc.id)).toMatchObject({ name: 'Shelf B', type: 'cabinet', capacity: 50 });
  });

  it("refuses moving a location into another organization's mailroom", async () => {
    const { admin } = await setup();
    const room = await createMailroom(admin);
    const loc = await createLocation(admin, room.id);
    const stranger = new Client(t);
    await stranger.register();
    await stranger.createOrganization('Elsewhere');
    const theirs = await createMailroom(stranger, 'Their Room');
    const res = await admin.put(`/api/mailroom-locations/${loc.id}`, { mailroomId: theirs.id, name: 'Moved' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Mailroom not found');
    expect(await locationRow(loc.id)).toMatchObject({ mailroomId: room.id, name: 'Shelf A' });
  });

  it('refuses a capacity lower than the items stored there', async () => {
    const { admin, org } = await setup();
    const room = await createMailroom(admin);
    const loc = await createLocation(admin, room.id, { capacity: 5 });
    await fill(org.id, { locationId: loc.id }, ['pending', 'pending', 'notified', 'returned']);
    const res = await admin.put(`/api/mailroom-locations/${loc.id}`, { capacity: 2, name: 'Shrunk' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'Capacity cannot be lower than the items stored here (3)',
      code: 'capacity_below_count',
    });
    expect(await locationRow(loc.id)).toMatchObject({ capacity: 5, name: 'Shelf A' });
    const exact = await admin.put(`/api/mailroom-locations/${loc.id}`, { capacity: 3 });
    expect(exact.statusCode).toBe(200);
    expect(exact.json()).toMatchObject({ capacity: 3, currentCount: 3, isFull: true });
  });

  it('refuses deleting a location holding items; once they are handed over it deletes and unlinks them', async () => {
    const { admin, org } = await setup();
    const room = await createMailroom(admin);
    const loc = await createLocation(admin, room.id);
    const [held] = await fill(org.id, { locationId: loc.id }, ['pending']);
    const done = await fill(org.id, { locationId: loc.id }, ['delivered', 'returned']);

    const res = await admin.delete(`/api/mailroom-locations/${loc.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: LOCATION_NOT_EMPTY, code: 'location_not_empty' });
    expect(await locationRow(loc.id)).toBeDefined();

    await t.db.update(mailItems).set({ status: 'delivered' }).where(eq(mailItems.id, held!));
    expect((await admin.delete(`/api/mailroom-locations/${loc.id}`)).statusCode).toBe(204);
    expect(await locationRow(loc.id)).toBeUndefined();
    const items = await t.db
      .select({ locationId: mailItems.locationId })
      .from(mailItems)
      .where(inArray(mailItems.id, [held!, ...done]));
    expect(items).toEqual([{ locationId: null }, { locationId: null }, { locationId: null }]);
    expect((await admin.delete(`/api/mailroom-locations/${loc.id}`)).statusCode).toBe(404);
  });

  it('does not delete a location while an item is being stored in it concurrently', async () => {
    const { admin, org } = await setup();
    const room = await createMailroom(admin);
    const loc = await createLocation(admin, room.id);
    // Intake's transaction has stored an item but not committed yet when the delete arrives.
    const intake = await t.pool.connect();
    try {
      await intake.query('begin');
      await intake.query(
        `insert into mail_items (organization_id, type, status, location_id) values ($1, 'package', 'pending', $2)`,
        [org.id, loc.id],
      );
      const deleting = admin.delete(`/api/mailroom-locations/${loc.id}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await intake.query('commit');
      const res = await deleting;
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('location_not_empty');
    } finally {
      intake.release();
    }
    expect((await admin.get('/api/mailroom-locations')).json()[0]).toMatchObject({ id: loc.id, currentCount: 1 });
  });

  it('counts only the held items of its own organization at a location', async () => {
    const { admin, org } = await setup();
    const room = await createMailroom(admin);
    const loc = await createLocation(admin, room.id, { capacity: 3 });
    await fill(org.id, { locationId: loc.id }, ['pending', 'notified', 'delivered', 'returned', 'pending']);
    // A row of another organization naming this location (never written by the API) is not counted.
    const stranger = new Client(t);
    await stranger.register();
    const other = await stranger.createOrganization('Elsewhere');
    await fill(other.id, { locationId: loc.id }, ['pending']);
    expect((await admin.get('/api/mailroom-locations')).json()[0]).toMatchObject({ currentCount: 3, isFull: true });
  });
});

describe('access', () => {
  it('lets members read and refuses them every write with 403, changing nothing', async () => {
    const { admin, member } = await setup();
    const room = await createMailroom(admin);
    const loc = await createLocation(admin, room.id);
    expect((await member.get('/api/mailrooms')).json()).toHaveLength(1);
    expect((await member.get('/api/mailroom-locations')).json()).toHaveLength(1);

    const writes = await everyMailroomWrite(member, room.id, loc.id);
    for (const res of writes) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Only organization admins can do this');
    }
    expect((await admin.get('/api/mailrooms')).json()).toMatchObject([{ name: 'Main Lobby', locationCount: 1 }]);
    expect((await admin.get('/api/mailroom-locations')).json()).toMatchObject([{ name: 'Shelf A' }]);
  });

  it('answers 401 when signed out', async () => {
    const { admin, org } = await setup();
    const room = await createMailroom(admin);
    const loc = await createLocation(admin, room.id);
    const anon = new Client(t);
    anon.organizationId = org.id;
    const calls = [
      await anon.get('/api/mailrooms'),
      await anon.post('/api/mailrooms', { name: 'X' }),
      await anon.put(`/api/mailrooms/${room.id}`, { name: 'X' }),
      await anon.delete(`/api/mailrooms/${room.id}`),
      await anon.get('/api/mailroom-locations'),
      await anon.post('/api/mailroom-locations', { name: 'X', type: 'bin', mailroomId: room.id }),
      await anon.put(`/api/mailroom-locations/${loc.id}`, { name: 'X' }),
      await anon.delete(`/api/mailroom-locations/${loc.id}`),
    ];
    expect(calls.map((r) => r.statusCode)).toEqual(Array(8).fill(401));
    expect(await mailroomRow(room.id)).toMatchObject({ name: 'Main Lobby' });
  });

  it("answers 404 for another organization's rows and changes nothing; 400 for a malformed id", async () => {
    const { admin } = await setup();
    const stranger = new Client(t);
    await stranger.register();
    await stranger.createOrganization('Elsewhere');
    const room = await createMailroom(stranger, 'Their Room');
    const loc = await createLocation(stranger, room.id, { name: 'Their Shelf' });
    const emptyRoom = await createMailroom(stranger, 'Their Empty Room');

    expect((await admin.get('/api/mailrooms')).json()).toEqual([]);
    expect((await admin.get('/api/mailroom-locations')).json()).toEqual([]);
    expect((await admin.get(`/api/mailroom-locations?mailroomId=${room.id}`)).json()).toEqual([]);
    const attempts = [
      await admin.put(`/api/mailrooms/${room.id}`, { name: 'Mine' }),
      await admin.delete(`/api/mailrooms/${emptyRoom.id}`),
      await admin.put(`/api/mailroom-locations/${loc.id}`, { name: 'Mine', capacity: 1 }),
      await admin.delete(`/api/mailroom-locations/${loc.id}`),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect(await mailroomRow(room.id)).toMatchObject({ name: 'Their Room' });
    expect(await mailroomRow(emptyRoom.id)).toBeDefined();
    expect(await locationRow(loc.id)).toMatchObject({ name: 'Their Shelf', capacity: 20 });

    for (const res of [
      await admin.put('/api/mailrooms/not-a-uuid', { name: 'X' }),
      await admin.delete('/api/mailrooms/not-a-uuid'),
      await admin.put('/api/mailroom-locations/123', { name: 'X' }),
      await admin.delete('/api/mailroom-locations/123'),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Invalid id');
    }
  });
});
