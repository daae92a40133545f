import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createSecondInstance,
  createTestApp,
  deskWithRecipient as deskOn,
  joinAs,
  signUpWithOrganization,
  type TestApp,
} from '../../test/harness';
import { handedOver } from '../../test/hand-over';

/**
 * The live desk's stream (decision 043) over real HTTP: inject() cannot hold a response open.
 * Two instances on one database, as behind nginx: what is written through one reaches a stream
 * held by the other, through PostgreSQL's change feed.
 */

type Event = { event: string; data: Record<string, unknown>; id?: string };
type Stream = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  events: Event[];
  /** Resolves with the first event (from the start) that `match` accepts; rejects after `ms`. */
  next: (match: (e: Event) => boolean, ms?: number) => Promise<Event>;
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  close: () => void;
};

const urls = new Map<TestApp, string>();
async function urlOf(t: TestApp) {
  let url = urls.get(t);
  if (!url) {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    urls.set(t, url);
  }
  return url;
}

/** Opens the stream as the client (its cookie), for `organizationId` (its own by default). */
async function openStream(
  t: TestApp,
  client: Client | undefined,
  organizationId = client?.organizationId ?? '',
  headers: Record<string, string> = {},
): Promise<Stream> {
  const base = await urlOf(t);
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${base}/api/events?organizationId=${encodeURIComponent(organizationId)}`,
      { headers: { ...(client?.cookie ? { cookie: client.cookie } : {}), ...headers } },
      (res) => {
        const stream: Stream = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: '',
          events: [],
          next: (match, ms = 5_000) =>
            new Promise((done, fail) => {
              const found = () => stream.events.find(match);
              const early = found();
              if (early) return done(early);
              const timer = setTimeout(() => {
                res.off('data', check);
                fail(new Error(`no matching event in ${ms} ms; got ${JSON.stringify(stream.events)}`));
              }, ms);
              const check = () => {
                const hit = found();
                if (!hit) return;
                clearTimeout(timer);
                res.off('data', check);
                done(hit);
              };
              res.on('data', check);
            }),
          ended: new Promise((done) => res.once('end', () => done())),
          close: () => req.destroy(),
        };
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          stream.body += chunk;
          pending += chunk;
          let cut: number;
          while ((cut = pending.indexOf('\n\n')) >= 0) {
            const block = pending.slice(0, cut);
            pending = pending.slice(cut + 2);
            const fields = Object.fromEntries(
              block
                .split('\n')
                .filter((line) => line && !line.startsWith(':'))
                .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
            );
            if (fields.event) {
              stream.events.push({ event: fields.event, data: JSON.parse(fields.data ?? '{}'), id: fields.id });
            }
          }
        });
        if (res.statusCode === 200) {
          // Resolve once `ready` is in: the stream is registered and will hear what follows.
          stream.next((e) => e.event === 'ready').then(() => resolve(stream), reject);
        } else {
          res.on('end', () => resolve(stream));
        }
      },
    );
    req.on('error', reject);
  });
}

const open: Stream[] = [];
async function opened(...args: Parameters<typeof openStream>) {
  const stream = await openStream(...args);
  open.push(stream);
  return stream;
}
afterAll(() => {
  for (const s of open) s.close();
});

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp();
  b = await createSecondInstance(a);
});

const onB = (client: Client) => client.on(b);

const deskWithRecipient = (name = 'Harbor View') => deskOn(a, name);

describe('GET /api/events', () => {
  it('answers an event stream that starts with ready, for a member of the organization', async () => {
    const { admin, org } = await deskWithRecipient();
    const stream = await opened(a, admin);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body.startsWith('retry: 2000\n\n')).toBe(true);
    expect(stream.events[0]).toMatchObject({ event: 'ready', data: { organizationId: org.id, role: 'admin' } });
    expect(stream.events[0]!.id).toMatch(/^\d+$/);
  });

  it('answers 401 without a session, and 404 for an organization the caller is not in', async () => {
    const { admin } = await deskWithRecipient();
    const { org: other } = await signUpWithOrganization(a, 'Elsewhere');
    const signedOut = await openStream(a, undefined, admin.organizationId);
    expect(signedOut.status).toBe(401);
    expect(JSON.parse(signedOut.body)).toMatchObject({ code: 'unauthenticated' });
    const elsewhere = await openStream(a, admin, other.id);
    expect(elsewhere.status).toBe(404);
    expect(JSON.parse(elsewhere.body)).toMatchObject({ message: 'Organization not found' });
    // A made-up id answers the same as another organization's: ids cannot be probed.
    const madeUp = await openStream(a, admin, '00000000-0000-4000-8000-000000000000');
    expect(madeUp.status).toBe(404);
    const malformed = await openStream(a, admin, 'not-an-id');
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({ code: 'validation_error' });
    // The x-organization-id header cannot stand in for the query's organization.
    const byHeader = await openStream(a, admin, other.id, { 'x-organization-id': admin.organizationId! });
    expect(byHeader.status).toBe(404);
  });

  it('refuses an API key (an EventSource has a session cookie, never a key)', async () => {
    const { admin } = await deskWithRecipient();
    const stream = await openStream(a, undefined, admin.organizationId, { authorization: 'Bearer pk_nothing' });
    expect(stream.status).toBe(401);
    expect(JSON.parse(stream.body)).toMatchObject({ code: 'invalid_api_key' });
  });

  it("carries the organization's mail item, recipient, storage and member changes, and no other organization's", async () => {
    const { admin, org, recipient } = await deskWithRecipient();
    const other = await deskWithRecipient('Other Towers');
    const stream = await opened(a, admin);
    const before = stream.events.length;

    // Another organization's changes first: if they were delivered they would arrive before ours.
    await other.admin.post('/api/mail-items', { type: 'letter', recipientId: other.recipient.id });
    await other.admin.post('/api/recipients', { firstName: 'Eve', lastName: 'Other' });

    const item = (await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id })).json<{
      id: string;
    }>();
    const logged = await stream.next((e) => e.event === 'change' && e.data.kind === 'mail-items');
    expect(logged.data).toEqual({ kind: 'mail-items', ids: [item.id], at: expect.any(Number) });
    expect(stream.events.slice(before)).toEqual([logged]);

    await admin.put(`/api/recipients/${recipient.id}`, { lastName: 'Lovelace' });
    await stream.next((e) => e.event === 'change' && e.data.kind === 'recipients');
    const mailroom = (await admin.post('/api/mailrooms', { name: 'Dock' })).json<{ id: string }>();
    expect(await stream.next((e) => e.event === 'change' && e.data.kind === 'storage')).toMatchObject({
      data: { ids: [mailroom.id] },
    });
    const { userId } = await joinAs(a, org.id);
    await admin.put(`/api/organizations/${org.id}/members/${userId}`, { role: 'admin' });
    await stream.next((e) => e.event === 'change' && e.data.kind === 'members');
    // The change's payload is ids and a kind: no names, no photo, no member's user id.
    expect(stream.body).not.toContain('Lovelace');
    expect(stream.body).not.toContain(userId);
    // Nothing of the other organization, whose ids never appear.
    expect(stream.body).not.toContain(other.recipient.id);
    expect(stream.events.filter((e) => e.event === 'change')).toHaveLength(4);
  });

  it('carries the writes sent with an Idempotency-Key (offline intake), once, and nothing for a replay', async () => {
    const { admin, recipient } = await deskWithRecipient();
    const stream = await opened(a, admin);
    const key = { 'idempotency-key': 'outbox-1' };
    const changes = () => stream.events.filter((e) => e.event === 'change' && e.data.kind === 'mail-items');

    const logged = await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id }, key);
    expect(logged.statusCode, logged.body).toBe(201);
    const item = logged.json<{ id: string }>();
    await stream.next((e) => e.event === 'change' && (e.data.ids as string[]).includes(item.id));

    const notify = { 'idempotency-key': 'outbox-2' };
    expect((await admin.request('PUT', `/api/mail-items/${item.id}`, { status: 'notified' }, notify)).statusCode).toBe(
      200,
    );
    await stream.next((e) => changes().length === 2 && e === changes()[1]);

    // Replays write nothing and announce nothing: the next change seen is the recipient's.
    await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id }, key);
    await admin.request('PUT', `/api/mail-items/${item.id}`, { status: 'notified' }, notify);
    await admin.put(`/api/recipients/${recipient.id}`, { lastName: 'Lovelace' });
    await stream.next((e) => e.event === 'change' && e.data.kind === 'recipients');
    expect(changes().map((e) => e.data.ids)).toEqual([[item.id], [item.id]]);
  });

  it("carries an erasure's rewrite of mail items with their ids: the writer announces it like any of its writes (issue 42)", async () => {
    const { admin, recipient } = await deskWithRecipient();
    const stream = await opened(a, admin);
    const changes = () => stream.events.filter((e) => e.event === 'change' && e.data.kind === 'mail-items');
    const item = (
      await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id, notes: 'For Ada Byron' })
    ).json<{ id: string }>();
    await stream.next((e) => changes().length === 1 && e === changes()[0]);

    const erased = await admin.post(`/api/recipients/${recipient.id}/erase`, { confirm: true });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json<{ counts: { mailItems: number } }>().counts.mailItems).toBe(1);
    const change = await stream.next((e) => changes().length === 2 && e === changes()[1]);
    expect(change.data).toEqual({ kind: 'mail-items', ids: [item.id], at: expect.any(Number) });
  });

  it('hears a change written on another instance (through the change feed)', async () => {
    const { admin, recipient } = await deskWithRecipient();
    const stream = await opened(a, admin);
    const desk = onB(admin);
    for (let n = 0; n < 5; n += 1) {
      const item = (await desk.post('/api/mail-items', { type: 'letter', recipientId: recipient.id })).json<{
        id: string;
      }>();
      await stream.next((e) => e.event === 'change' && (e.data.ids as string[] | undefined)?.[0] === item.id);
      // Handed over on B: Pending Pickups on A hears it too.
      await handedOver(desk, item.id);
      await stream.next(
        (e) =>
          e.event === 'change' &&
          (e.data.ids as string[] | undefined)?.[0] === item.id &&
          stream.events.filter((x) => (x.data.ids as string[] | undefined)?.[0] === item.id).length === 2,
      );
    }
  });

  it('tells a reconnecting browser (Last-Event-ID) to refetch what it shows', async () => {
    const { admin } = await deskWithRecipient();
    const fresh = await opened(a, admin);
    // A fresh stream starts with `ready` and is not told to refetch. (The set-up's own writes may
    // still reach it as a `change` on a loaded machine: their notification is asynchronous.)
    expect(fresh.events[0]?.event).toBe('ready');
    expect(fresh.events.some((e) => e.event === 'resync')).toBe(false);
    const again = await opened(b, onB(admin), admin.organizationId, { 'last-event-id': fresh.events[0]!.id! });
    // `resync` follows `ready` at once, though not always in the same chunk.
    await again.next((e) => e.event === 'resync');
    expect(again.events.map((e) => e.event).filter((e) => e !== 'change')).toEqual(['ready', 'resync']);
  });

  it('ends at sign-out, on another instance too', async () => {
    const { admin } = await deskWithRecipient();
    const onA = await opened(a, admin);
    const held = await opened(b, onB(admin));
    const still = await signUpWithOrganization(a, 'Unrelated');
    const unrelated = await opened(b, still.client);
    expect((await admin.post('/api/logout')).statusCode).toBe(204);
    await Promise.all([onA.ended, held.ended]);
    for (const s of [onA, held])
      expect(s.events.at(-1)).toMatchObject({ event: 'ended', data: { reason: 'signed-out' } });
    // Another person's stream goes on.
    expect(unrelated.events.map((e) => e.event)).toEqual(['ready']);
    expect(b.app.liveHub.size).toBeGreaterThan(0);
  });

  it("ends when the member is removed or their role changes, and others' streams go on", async () => {
    const { admin, org } = await deskWithRecipient();
    const removed = await joinAs(a, org.id);
    const demoted = await joinAs(a, org.id, 'admin');
    const adminStream = await opened(a, admin);
    const removedStream = await opened(b, onB(removed.client));
    const demotedStream = await opened(a, demoted.client);
    expect((await admin.delete(`/api/organizations/${org.id}/members/${removed.userId}`)).statusCode).toBe(204);
    await removedStream.ended;
    expect(removedStream.events.at(-1)).toMatchObject({ event: 'ended', data: { reason: 'removed' } });
    expect(
      (await admin.put(`/api/organizations/${org.id}/members/${demoted.userId}`, { role: 'member' })).statusCode,
    ).toBe(200);
    await demotedStream.ended;
    expect(demotedStream.events.at(-1)).toMatchObject({ event: 'ended', data: { reason: 'role-changed' } });
    // The removed member cannot open it again; the admin's stream heard both changes and is open.
    expect((await openStream(b, onB(removed.client), org.id)).status).toBe(404);
    await adminStream.next((e) => e.event === 'change' && e.data.kind === 'members' && adminStream.events.length >= 3);
    expect(adminStream.events.map((e) => e.event)).toEqual(['ready', 'change', 'change']);
  });

  it('forgets a stream whose browser went away', async () => {
    const { admin } = await deskWithRecipient();
    const stream = await opened(a, admin);
    const held = a.app.liveHub.size;
    stream.close();
    for (let n = 0; n < 100 && a.app.liveHub.size === held; n += 1) await new Promise((r) => setTimeout(r, 20));
    expect(a.app.liveHub.size).toBe(held - 1);
  });

  it('ends every stream when the instance closes, so shutdown is not held up', async () => {
    const c = await createSecondInstance(a);
    const { admin } = await deskWithRecipient();
    const stream = await openStream(c, admin);
    // close() waits for open responses: it returns only because the hub ended the stream first.
    await c.app.close();
    await stream.ended;
    expect(stream.events.at(-1)).toMatchObject({ event: 'ended', data: { reason: 'shutdown' } });
  });
});

/**
 * Issue 41, item 5 (decision 051): one session opened 500 streams (open files 35 -> 527, session
 * re-reads 2.3/s -> 20.2/s). Per session and per person the newest stream wins and the oldest is
 * ended `replaced`; past the instance's most a new stream answers 503 with Retry-After.
 */
describe('GET /api/events: how many streams', () => {
  const CAPS = { LIVE_STREAMS_PER_SESSION: '3', LIVE_STREAMS_PER_PERSON: '5', LIVE_STREAMS_PER_INSTANCE: '8' };
  let capped: TestApp;
  beforeAll(async () => {
    capped = await createTestApp(CAPS);
  });

  /** Waits until the instance holds `n` streams (a browser going away is seen on its socket's close). */
  async function holds(t: TestApp, n: number) {
    for (let i = 0; i < 200 && t.app.liveHub.size !== n; i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(t.app.liveHub.size).toBe(n);
  }

  /** The same person signed in again (another browser): a session of its own. */
  async function secondSession(client: Client, username: string, password: string) {
    const other = new Client(capped);
    expect((await other.post('/api/login', { username, password })).statusCode).toBe(200);
    other.organizationId = client.organizationId;
    return other;
  }

  it("one session opening more than its cap: the oldest is ended `replaced`, the count stays bounded, another person's stream goes on", async () => {
    const { client: person } = await signUpWithOrganization(capped, 'Probe Towers');
    const { client: neighbour } = await signUpWithOrganization(capped, 'Next Door');
    const theirs = await opened(capped, neighbour);
    const streams: Stream[] = [];
    for (let n = 0; n < 10; n += 1) {
      streams.push(await opened(capped, person));
      if (n >= 3) {
        // The oldest still open gave way to the new one, before the new one was ready.
        const oldest = streams[n - 3]!;
        await oldest.ended;
        expect(oldest.events.at(-1)).toMatchObject({ event: 'ended', data: { reason: 'replaced' } });
      }
      expect(streams.filter((s) => s.events.at(-1)?.event !== 'ended')).toHaveLength(Math.min(n + 1, 3));
    }
    expect(streams.slice(7).map((s) => s.events.map((e) => e.event))).toEqual([['ready'], ['ready'], ['ready']]);
    await holds(capped, 4);
    // The newest three still hear their organization; the other person's stream was untouched.
    await person.post('/api/recipients', { firstName: 'Ada', lastName: 'Byron' });
    await Promise.all(streams.slice(7).map((s) => s.next((e) => e.event === 'change')));
    await neighbour.post('/api/recipients', { firstName: 'Eve', lastName: 'Other' });
    await theirs.next((e) => e.event === 'change');
    expect(theirs.events.map((e) => e.event)).toEqual(['ready', 'change']);
    for (const s of [...streams, theirs]) s.close();
    await holds(capped, 0);
  });

  it("a person's sessions together: past the person's cap the oldest of any of their sessions is ended", async () => {
    const { client: person, account } = await signUpWithOrganization(capped, 'Two Browsers');
    const laptop = await secondSession(person, account.username, account.password);
    const first = [await opened(capped, person), await opened(capped, person), await opened(capped, person)];
    const second = [await opened(capped, laptop), await opened(capped, laptop)];
    await holds(capped, 5);
    // A sixth stream of the person (the laptop's third): the person's oldest, in the other session, gives way.
    second.push(await opened(capped, laptop));
    await first[0]!.ended;
    expect(first[0]!.events.at(-1)).toMatchObject({ event: 'ended', data: { reason: 'replaced' } });
    expect([...first.slice(1), ...second].every((s) => s.events.at(-1)?.event === 'ready')).toBe(true);
    await holds(capped, 5);
    for (const s of [...first, ...second]) s.close();
    await holds(capped, 0);
  });

  it('past the instance’s cap a new stream answers 503 with Retry-After; a session at its own cap still replaces its oldest', async () => {
    const people = await Promise.all([1, 2, 3].map((n) => signUpWithOrganization(capped, `Full ${n}`)));
    const held: Stream[] = [];
    for (const [i, count] of [3, 3, 2].entries()) {
      for (let n = 0; n < count; n += 1) held.push(await opened(capped, people[i]!.client));
    }
    await holds(capped, 8);
    const { client: latecomer } = await signUpWithOrganization(capped, 'Latecomer');
    const refused = await openStream(capped, latecomer);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(JSON.parse(refused.body)).toMatchObject({
      code: 'live_streams_full',
      message: expect.stringMatching(/no room/),
    });
    // Validation and access still come first: a full instance does not say who may listen.
    expect((await openStream(capped, undefined, latecomer.organizationId)).status).toBe(401);
    expect((await openStream(capped, latecomer, people[0]!.org.id)).status).toBe(404);
    // A session at its cap (the first person's three) makes room by ending its own oldest.
    held.push(await opened(capped, people[0]!.client));
    await held[0]!.ended;
    expect(held[0]!.events.at(-1)).toMatchObject({ event: 'ended', data: { reason: 'replaced' } });
    await holds(capped, 8);
    // A stream closed by its browser frees a place.
    held[7]!.close();
    await holds(capped, 7);
    const admitted = await opened(capped, latecomer);
    expect(admitted.status).toBe(200);
    for (const s of [...held, admitted]) s.close();
    await holds(capped, 0);
  });
});
