import { and, count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_INVALID,
  IDEMPOTENCY_KEY_REUSED,
  IF_MATCH_INVALID,
  REVISION_CONFLICT,
} from '../../../contract';
import { handovers, idempotencyKeys, mailItemHistory, mailItems, notificationJobs } from '../../db/schema';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';
import { IDEMPOTENCY_HOURS, idempotencyRepository } from './idempotency';
import { handedOver, signaturePng } from '../../test/hand-over';

/**
 * Idempotency keys and revisions of the desk's writes (decision 044), through the routes against
 * the real database: a repeat is answered with the first answer and writes nothing, and an edit
 * made from an older revision is refused with the item as it is now.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

type Item = { id: string; status: string; revision: number; sender: string | null; notes: string | null };

async function desk(name = 'Harbor View') {
  const admin = new Client(t);
  await admin.register();
  const org = await admin.createOrganization(name);
  const { client: member } = await joinAs(t, org.id);
  const amara = await created(admin, '/api/recipients', { firstName: 'Amara', lastName: 'Okafor' });
  return { admin, member, org, amara };
}

async function created(c: Client, url: string, body: object) {
  const res = await c.post(url, body);
  if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>();
}

const withKey = (key: string) => ({ 'idempotency-key': key });

/** What an organization has written: items, their 'created' history rows, their outbox events, keys. */
async function written(organizationId: string) {
  const n = async (
    table: typeof mailItems | typeof mailItemHistory | typeof notificationJobs | typeof idempotencyKeys,
  ) => (await t.db.select({ n: count() }).from(table).where(eq(table.organizationId, organizationId)))[0]!.n;
  const [created] = await t.db
    .select({ n: count() })
    .from(mailItemHistory)
    .where(and(eq(mailItemHistory.organizationId, organizationId), eq(mailItemHistory.action, 'created')));
  return {
    items: await n(mailItems),
    created: created!.n,
    events: await n(notificationJobs),
    keys: await n(idempotencyKeys),
  };
}

describe('Idempotency-Key on intake', () => {
  it('answers a repeat with the first answer, marked replayed, and writes the item once', async () => {
    const { member, org, amara } = await desk();
    const body = { type: 'package', recipientId: amara.id, sender: 'Acme' };
    const first = await member.post('/api/mail-items', body, withKey('intake-1'));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await member.post('/api/mail-items', body, withKey('intake-1'));
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await written(org.id)).toMatchObject({ items: 1, created: 1, keys: 1 });
    // One arrival event for the one item, not one per request.
    const events = await t.db
      .select({ n: count() })
      .from(notificationJobs)
      .where(eq(notificationJobs.mailItemId, first.json<Item>().id));
    expect(events[0]!.n).toBe(1);
  });

  it('refuses the same key with another body with 422 and writes nothing', async () => {
    const { member, org, amara } = await desk();
    await member.post('/api/mail-items', { type: 'package', recipientId: amara.id }, withKey('k'));
    const before = await written(org.id);
    const res = await member.post('/api/mail-items', { type: 'letter', recipientId: amara.id }, withKey('k'));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: IDEMPOTENCY_KEY_REUSED, code: 'idempotency_key_reused' });
    // The same key on another route is another request too.
    const elsewhere = await member.post('/api/mail-items/needs-recipient', { type: 'package' }, withKey('k'));
    expect(elsewhere.statusCode).toBe(422);
    expect(await written(org.id)).toEqual(before);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'two words'],
    ['not ASCII', 'clé'],
  ])('refuses a key %s with 400 and writes nothing', async (_name, key) => {
    const { member, org, amara } = await desk();
    const res = await member.post('/api/mail-items', { type: 'package', recipientId: amara.id }, withKey(key));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ message: IDEMPOTENCY_KEY_INVALID, code: 'invalid_idempotency_key' });
    expect(await written(org.id)).toMatchObject({ items: 0, keys: 0 });
  });

  it('takes a key of 255 visible characters', async () => {
    const { member, amara } = await desk();
    const key = '~'.repeat(200) + '!#$%&'.repeat(11);
    const res = await member.post('/api/mail-items', { type: 'package', recipientId: amara.id }, withKey(key));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('writes one item when the same request arrives several times at once', async () => {
    const { member, org, amara } = await desk();
    const body = { type: 'package', recipientId: amara.id, sender: 'Twice' };
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => member.post('/api/mail-items', body, withKey('at-once'))),
    );
    expect(replies.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(replies.map((r) => r.json<Item>().id)).size).toBe(1);
    expect(replies.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    expect(await written(org.id)).toMatchObject({ items: 1, created: 1, keys: 1 });
  });

  it("keeps another organization's identical key apart", async () => {
    const one = await desk('One');
    const two = await desk('Two');
    const a = await one.member.post('/api/mail-items', { type: 'package', recipientId: one.amara.id }, withKey('same'));
    const b = await two.member.post('/api/mail-items', { type: 'package', recipientId: two.amara.id }, withKey('same'));
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(a.json<Item>().id).not.toBe(b.json<Item>().id);
    expect((await written(one.org.id)).items).toBe(1);
    expect((await written(two.org.id)).items).toBe(1);
  });

  it("keeps another member's identical key apart: their request is a fresh one, never the first member's reply", async () => {
    // The probe (issue 41 item 14): a second member replayed the first member's key and got the
    // first member's reply (the item they logged, its recipient's name, email and phone).
    const { admin, member, org, amara } = await desk();
    /** The same request under the same key, by whichever member sends it. */
    const shared = (c: Client) =>
      c.post('/api/mail-items', { type: 'package', recipientId: amara.id, sender: 'Acme' }, withKey('shared'));
    const first = await shared(member);
    expect(first.statusCode, first.body).toBe(201);
    const other = await shared(admin);
    expect(other.statusCode, other.body).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.json<Item>().id).not.toBe(first.json<Item>().id);
    // Another request under the key is the other member's own: not a 422 about someone else's.
    const letter = await admin.post('/api/mail-items', { type: 'letter', recipientId: amara.id }, withKey('k2'));
    expect(letter.statusCode, letter.body).toBe(201);
    const sameKeyOtherBody = await member.post(
      '/api/mail-items',
      { type: 'package', recipientId: amara.id },
      withKey('k2'),
    );
    expect(sameKeyOtherBody.statusCode, sameKeyOtherBody.body).toBe(201);
    // Each member's own repeat is still replayed.
    const again = await shared(member);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<Item>().id).toBe(first.json<Item>().id);
    expect(await written(org.id)).toMatchObject({ items: 4, keys: 4 });
  });

  it('keeps an API key apart from the user who created it, and from another API key', async () => {
    const { admin, org, amara } = await desk();
    const api = (await admin.post('/api/integrations', { name: 'Kiosk', type: 'api', config: {} })).json<{
      id: string;
      apiKey: string;
    }>();
    const second = (await admin.post(`/api/integrations/${api.id}/api-keys`, { name: 'Second' })).json<{
      key: string;
    }>();
    const byKey = (key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/mail-items',
        headers: { authorization: `Bearer ${key}`, ...withKey('kiosk-1') },
        payload: { type: 'package', recipientId: amara.id },
      });
    const asAdmin = await admin.post('/api/mail-items', { type: 'package', recipientId: amara.id }, withKey('kiosk-1'));
    const one = await byKey(api.apiKey);
    const two = await byKey(second.key);
    const oneAgain = await byKey(api.apiKey);
    expect([asAdmin.statusCode, one.statusCode, two.statusCode, oneAgain.statusCode]).toEqual([201, 201, 201, 201]);
    const ids = [asAdmin, one, two].map((r) => r.json<Item>().id);
    expect(new Set(ids).size).toBe(3);
    expect(oneAgain.headers['idempotent-replayed']).toBe('true');
    expect(oneAgain.json<Item>().id).toBe(one.json<Item>().id);
    expect(await written(org.id)).toMatchObject({ items: 3, keys: 3 });
  });

  it('still replays a key stored before keys had callers (migration 0031) until it expires', async () => {
    const { member, org, amara } = await desk();
    const body = { type: 'package', recipientId: amara.id };
    const first = await member.post('/api/mail-items', body, withKey('before-0031'));
    // As migration 0031 left the keys it found: no caller.
    await t.db.update(idempotencyKeys).set({ caller: '' }).where(eq(idempotencyKeys.organizationId, org.id));
    const again = await member.post('/api/mail-items', body, withKey('before-0031'));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<Item>().id).toBe(first.json<Item>().id);
    expect(await written(org.id)).toMatchObject({ items: 1, keys: 1 });
  });

  it('remembers nothing of a refused request: the key may be sent again, corrected', async () => {
    const { member, org, amara } = await desk();
    const gone = '00000000-0000-4000-8000-000000000000';
    const refused = await member.post('/api/mail-items', { type: 'package', recipientId: gone }, withKey('fix-me'));
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ message: 'Recipient not found' });
    expect(await written(org.id)).toMatchObject({ items: 0, keys: 0 });
    const fixed = await member.post('/api/mail-items', { type: 'package', recipientId: amara.id }, withKey('fix-me'));
    expect(fixed.statusCode, fixed.body).toBe(201);
    expect(await written(org.id)).toMatchObject({ items: 1, keys: 1 });
  });

  it('keeps the role checks: signed out is 401, another organization is refused, and nothing is written', async () => {
    const { org, amara } = await desk();
    const stranger = new Client(t);
    const signedOut = await stranger.post('/api/mail-items', { type: 'package' }, withKey('x'));
    expect(signedOut.statusCode).toBe(401);
    await stranger.register();
    await stranger.createOrganization('Elsewhere');
    const res = await stranger.post(
      '/api/mail-items',
      { type: 'package', recipientId: amara.id },
      { ...withKey('x'), 'x-organization-id': org.id },
    );
    expect([403, 404]).toContain(res.statusCode);
    expect(await written(org.id)).toMatchObject({ items: 0, keys: 0 });
  });

  it('forgets keys after their day (housekeeping), and an expired key may be used again', async () => {
    const { member, org, amara } = await desk();
    await member.post('/api/mail-items', { type: 'package', recipientId: amara.id }, withKey('old'));
    await t.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - make_interval(hours => ${IDEMPOTENCY_HOURS + 1})` })
      .where(eq(idempotencyKeys.organizationId, org.id));
    // Not yet purged: the expired key is not replayed, and a new request may take it.
    const reused = await member.post('/api/mail-items', { type: 'letter', recipientId: amara.id }, withKey('old'));
    expect(reused.statusCode, reused.body).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    await t.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - make_interval(hours => ${IDEMPOTENCY_HOURS + 1})` })
      .where(eq(idempotencyKeys.organizationId, org.id));
    expect(await idempotencyRepository.purgeExpired(t.db.$client)).toBeGreaterThanOrEqual(1);
    expect(await written(org.id)).toMatchObject({ items: 2, keys: 0 });
  });
});

describe('Idempotency-Key on status changes and hand-overs', () => {
  it('changes a status once for a repeated request', async () => {
    const { member, org, amara } = await desk();
    const item = await created(member, '/api/mail-items', { type: 'package', recipientId: amara.id });
    const put = () => member.request('PUT', `/api/mail-items/${item.id}`, { status: 'notified' }, withKey('notify-1'));
    const [a, b] = await Promise.all([put(), put()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    const c = await put();
    expect(c.headers['idempotent-replayed']).toBe('true');
    expect(c.json<Item>().revision).toBe(2);
    const notified = await t.db
      .select({ n: count() })
      .from(mailItemHistory)
      .where(and(eq(mailItemHistory.mailItemId, item.id), eq(mailItemHistory.action, 'notified')));
    expect(notified[0]!.n).toBe(1);
    expect((await written(org.id)).keys).toBe(1);
  });

  it("answers 404 for another organization's item and remembers nothing", async () => {
    const { org } = await desk('Mine');
    const other = await desk('Theirs');
    const item = await created(other.member, '/api/mail-items', { type: 'package', recipientId: other.amara.id });
    const mine = new Client(t);
    await mine.register();
    mine.organizationId = (await mine.createOrganization('Mine too')).id;
    const res = await mine.request('PUT', `/api/mail-items/${item.id}`, { status: 'notified' }, withKey('theirs'));
    expect(res.statusCode).toBe(404);
    expect((await written(org.id)).keys).toBe(0);
    expect((await other.member.get(`/api/mail-items/${item.id}`)).json<Item>().status).toBe('pending');
  });

  it('hands over once for a repeated request, and replays the proof', async () => {
    const { member, org, amara } = await desk();
    const item = await created(member, '/api/mail-items', { type: 'package', recipientId: amara.id });
    const body = {
      itemIds: [item.id],
      collectorName: 'Amara Okafor',
      identifiedBy: 'id_checked',
      signatureData: await signaturePng(),
    };
    const first = await member.post('/api/handovers', body, withKey('hand-1'));
    expect(first.statusCode, first.body).toBe(201);
    const again = await member.post('/api/handovers', body, withKey('hand-1'));
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const rows = await t.db.select({ n: count() }).from(handovers).where(eq(handovers.organizationId, org.id));
    expect(rows[0]!.n).toBe(1);
    const other = await member.post('/api/handovers', { ...body, collectorName: 'Someone Else' }, withKey('hand-1'));
    expect(other.statusCode).toBe(422);
  });
});

describe('Revisions: an edit from an older revision (If-Match)', () => {
  it('applies an edit made from the current revision and counts one more', async () => {
    const { member, amara } = await desk();
    const item = await created(member, '/api/mail-items', { type: 'package', recipientId: amara.id });
    expect((await member.get(`/api/mail-items/${item.id}`)).json<Item>().revision).toBe(1);
    const res = await member.request('PUT', `/api/mail-items/${item.id}`, { sender: 'DHL' }, { 'if-match': '"1"' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Item>()).toMatchObject({ sender: 'DHL', revision: 2 });
    // The lists' rows carry it too, for their own status actions.
    const rows = (await member.get('/api/mail-items?view=summary')).json<Item[]>();
    expect(rows.find((r) => r.id === item.id)?.revision).toBe(2);
  });

  it('refuses an edit from an older revision with 409 and the item as it is now, changing nothing', async () => {
    const { admin, member, amara } = await desk();
    const item = await created(member, '/api/mail-items', { type: 'package', recipientId: amara.id });
    // Clerk A changes the sender; clerk B, who opened the item at revision 1, then changes the status.
    const a = await admin.request('PUT', `/api/mail-items/${item.id}`, { sender: 'UPS' }, { 'if-match': '"1"' });
    expect(a.statusCode).toBe(200);
    const b = await member.request(
      'PUT',
      `/api/mail-items/${item.id}`,
      { sender: 'FedEx', status: 'notified' },
      { 'if-match': '"1"' },
    );
    expect(b.statusCode, b.body).toBe(409);
    expect(b.json()).toMatchObject({
      message: REVISION_CONFLICT,
      code: 'revision_conflict',
      current: { id: item.id, sender: 'UPS', status: 'pending', revision: 2 },
    });
    const now = (await member.get(`/api/mail-items/${item.id}`)).json<Item>();
    expect(now).toMatchObject({ sender: 'UPS', status: 'pending', revision: 2 });
    // "Apply mine again": the same change from the revision now shown.
    const again = await member.request(
      'PUT',
      `/api/mail-items/${item.id}`,
      { sender: 'FedEx', status: 'notified' },
      { 'if-match': '"2"' },
    );
    expect(again.statusCode).toBe(200);
    expect(again.json<Item>()).toMatchObject({ sender: 'FedEx', status: 'notified', revision: 3 });
  });

  it('edits without If-Match as before (API clients): the last write wins', async () => {
    const { member, amara } = await desk();
    const item = await created(member, '/api/mail-items', { type: 'package', recipientId: amara.id });
    await member.put(`/api/mail-items/${item.id}`, { notes: 'one' });
    const res = await member.put(`/api/mail-items/${item.id}`, { notes: 'two' });
    expect(res.statusCode).toBe(200);
    expect(res.json<Item>()).toMatchObject({ notes: 'two', revision: 3 });
  });

  it.each(['abc', '"1', '-1', '"1", "2"', '*'])('refuses If-Match %j with 400 and changes nothing', async (value) => {
    const { member, amara } = await desk();
    const item = await created(member, '/api/mail-items', { type: 'package', recipientId: amara.id });
    const res = await member.request('PUT', `/api/mail-items/${item.id}`, { notes: 'x' }, { 'if-match': value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: IF_MATCH_INVALID, code: 'invalid_if_match' });
    expect((await member.get(`/api/mail-items/${item.id}`)).json<Item>()).toMatchObject({ notes: null, revision: 1 });
  });

  it("answers 404, not 409, for another organization's item", async () => {
    const other = await desk('Theirs');
    const item = await created(other.member, '/api/mail-items', { type: 'package', recipientId: other.amara.id });
    const mine = new Client(t);
    await mine.register();
    await mine.createOrganization('Mine');
    const res = await mine.request('PUT', `/api/mail-items/${item.id}`, { notes: 'x' }, { 'if-match': '"7"' });
    expect(res.statusCode).toBe(404);
  });

  it('counts the revision of a status change, a hand-over and the intake of an item without a recipient', async () => {
    const { member, amara } = await desk();
    const waiting = await created(member, '/api/mail-items/needs-recipient', { type: 'package' });
    expect((await member.get(`/api/mail-items/${waiting.id}`)).json<Item>().revision).toBe(1);
    const item = await created(member, '/api/mail-items', { type: 'package', recipientId: amara.id });
    await handedOver(member, item.id, { collectorName: 'Amara Okafor' });
    expect((await member.get(`/api/mail-items/${item.id}`)).json<Item>()).toMatchObject({
      status: 'delivered',
      revision: 2,
    });
  });
});
