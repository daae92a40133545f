import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFY_CHANNEL_MESSAGES, PORTAL_LINK_SENT, type PortalMe } from '../../../contract';
import { integrations, mailItemHistory, recipientLinks } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { RECIPIENT_SESSION_COOKIE } from '../../plugins/recipient-session';
import { handedOver } from '../../test/hand-over';
import { Client, joinAs, type TestApp } from '../../test/harness';
import { testWorkers } from '../../test/notification-workers';
import { createTestAppWithSmtp, type TestSmtp } from '../../test/smtp';
import { portalRepository } from './portal.repository';
import {
  LINK_LIMIT_PER_ADDRESS,
  PORTAL_WRITES_LIMITED,
  PORTAL_WRITES_PER_ORGANIZATION,
  PORTAL_WRITES_PER_RECIPIENT,
} from './portal.service';

/** The recipient's own page (decision 032): links, its session, and only their own rows. */

let smtp: TestSmtp;
let t: TestApp;
beforeAll(async () => {
  ({ t, smtp } = await createTestAppWithSmtp());
});
const workers = testWorkers();

/** A browser on the recipient's page: it keeps the portal cookie only. */
class Portal {
  cookie: string | undefined;
  constructor(readonly ip = '203.0.113.9') {}
  async request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await t.app.inject({
      method,
      url,
      remoteAddress: this.ip,
      headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    const set = res.cookies.find((c) => c.name === RECIPIENT_SESSION_COOKIE);
    if (set) this.cookie = set.value ? `${RECIPIENT_SESSION_COOKIE}=${set.value}` : undefined;
    return res;
  }
  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body);
  put = (url: string, body?: unknown) => this.request('PUT', url, body);
  delete = (url: string) => this.request('DELETE', url);
}

const unique = () => crypto.randomUUID().slice(0, 8);
// Each caller its own address: the per-IP limits must not count another test's requests (a random
// pick of 250 met an earlier test's address now and then, and its 429 came early).
let lastIp = 0;
const ip = () => `198.51.${100 + Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;

async function desk(name = 'Harbor View') {
  const admin = new Client(t);
  await admin.register();
  await admin.createOrganization(`${name} ${unique()}`);
  const email = `amara.${unique()}@example.com`;
  const recipient = await create(admin, '/api/recipients', {
    firstName: 'Amara',
    lastName: 'Okafor',
    email,
    phone: `+1 (555) ${Math.floor(Math.random() * 9_000_000) + 1_000_000}`,
  });
  const other = await create(admin, '/api/recipients', {
    firstName: 'Ben',
    lastName: 'Ito',
    email: `ben.${unique()}@example.com`,
  });
  return { admin, recipient, other, email };
}

async function create(c: Client, url: string, body: object) {
  const res = await c.post(url, body);
  if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>();
}

/** Asks for a link for `email` and answers the token in the email that arrives. */
async function requestToken(email: string, from = new Portal(ip())) {
  const before = smtp.received.length;
  const res = await from.post('/api/portal/links', { address: email });
  expect(res.statusCode, res.body).toBe(202);
  await t.app.portalLinksSent();
  // The links are in the outbox: the worker sends them (decision 054).
  await workers.drain(t);
  // The link's email, not an arrival email to the same person that the same drain may send first.
  const link = smtp.received
    .slice(before)
    .filter((m) => m.to.includes(email))
    .map((m) => /\/my\/open#token=([\w-]+)/.exec(m.text)?.[1])
    .find((token) => token !== undefined);
  if (!link) throw new Error(`no link to ${email}`);
  return link;
}

async function signedIn(email: string) {
  const browser = new Portal(ip());
  const res = await browser.post('/api/portal/session', { token: await requestToken(email) });
  expect(res.statusCode, res.body).toBe(200);
  return browser;
}

describe('asking for a link', () => {
  it('answers the same for a known and an unknown address, and emails the known one a single-use link to /my/open', async () => {
    const { email, recipient } = await desk();
    const known = await new Portal(ip()).post('/api/portal/links', { address: email.toUpperCase() });
    const unknown = await new Portal(ip()).post('/api/portal/links', { address: `nobody.${unique()}@example.com` });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual({ message: PORTAL_LINK_SENT });
    expect(unknown.json()).toEqual(known.json());
    await t.app.portalLinksSent();
    // The links are in the outbox: the worker sends them (decision 054).
    await workers.drain(t);
    const mail = await smtp.waitFor(email);
    expect(mail.text).toMatch(/http:\/\/pigeonhole\.test\/my\/open#token=[\w-]{43}/);
    const token = /#token=([\w-]+)/.exec(mail.text)![1]!;
    // Only the hash is kept, bound to this recipient, for 15 minutes.
    const [row] = await t.db
      .select()
      .from(recipientLinks)
      .where(eq(recipientLinks.tokenHash, hashToken(token)));
    expect(row).toMatchObject({ recipientId: recipient.id, purpose: 'requested', usedAt: null });
    const minutes = (row!.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
  });

  it('finds the recipient by the digits of their phone number (SMS needs an integration; none here, so nothing goes out)', async () => {
    const { recipient } = await desk();
    const [row] = await t.db
      .execute<{ phone: string }>(sql`select phone from recipients where id = ${recipient.id}`)
      .then((r) => r.rows);
    const res = await new Portal(ip()).post('/api/portal/links', { address: row!.phone.replace(/\D/g, '') });
    expect(res.statusCode).toBe(202);
    await t.app.portalLinksSent();
    // The links are in the outbox: the worker sends them (decision 054).
    await workers.drain(t);
  });

  it('refuses what is neither an email address nor a phone number with a clear 400', async () => {
    for (const address of ['', 'not an address', 'a@b', '12']) {
      const res = await new Portal(ip()).post('/api/portal/links', { address });
      expect(res.statusCode, address).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/email address or phone number/);
    }
    expect((await new Portal(ip()).post('/api/portal/links', {})).statusCode).toBe(400);
  });

  it('is limited per address and per IP (429 with a clear message)', async () => {
    const { email } = await desk();
    for (let n = 0; n < LINK_LIMIT_PER_ADDRESS; n++) {
      expect((await new Portal(ip()).post('/api/portal/links', { address: email })).statusCode).toBe(202);
    }
    const refused = await new Portal(ip()).post('/api/portal/links', { address: email });
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ message: string }>().message).toMatch(/Too many links/);
    const one = new Portal(ip());
    const codes = [];
    for (let n = 0; n < 11; n++)
      codes.push((await one.post('/api/portal/links', { address: `x${n}.${unique()}@example.com` })).statusCode);
    expect(codes.slice(0, 10), 'the first ten from one address').toEqual(Array(10).fill(202));
    expect(codes[10]).toBe(429);
    await t.app.portalLinksSent();
    // The links are in the outbox: the worker sends them (decision 054).
    await workers.drain(t);
  });

  it('counts the addresses of one IPv6 /64 as one caller, and an IPv4 address alone (issue 41, item 9)', async () => {
    // The probe: one /64 changes its last 64 bits for every request (privacy addresses do it by themselves).
    const prefix = '2001:db8:41:9';
    const codes = [];
    for (let n = 0; n < 11; n++) {
      const from = new Portal(`${prefix}:${(n + 1).toString(16)}::${(n * 7 + 3).toString(16)}`);
      codes.push((await from.post('/api/portal/links', { address: `v6.${n}.${unique()}@example.com` })).statusCode);
    }
    expect(codes.slice(0, 10), 'ten from the /64, each from another address').toEqual(Array(10).fill(202));
    const refused = await new Portal(`${prefix}:ffff:ffff:ffff:ffff`).post('/api/portal/links', {
      address: `v6.${unique()}@example.com`,
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<{ message: string }>().message).toMatch(/Too many links/);
    expect(codes[10]).toBe(429);
    // Another /64 of the same /48 is another subscriber.
    const neighbour = await new Portal('2001:db8:41:a::1').post('/api/portal/links', {
      address: `v6.${unique()}@example.com`,
    });
    expect(neighbour.statusCode).toBe(202);
    // An IPv4 client seen through a dual-stack socket counts as that IPv4 address, alone.
    const v4 = ip();
    for (let n = 0; n < 10; n++) {
      const from = new Portal(n % 2 ? v4 : `::ffff:${v4}`);
      expect((await from.post('/api/portal/links', { address: `v4.${n}.${unique()}@example.com` })).statusCode).toBe(
        202,
      );
    }
    expect(
      (await new Portal(`::ffff:${v4}`).post('/api/portal/links', { address: `v4.${unique()}@example.com` }))
        .statusCode,
    ).toBe(429);
    expect(
      (await new Portal(ip()).post('/api/portal/links', { address: `v4.${unique()}@example.com` })).statusCode,
    ).toBe(202);
    // Opening links too: thirty forged tokens from one /64, the thirty-first from another address of it.
    const exchanges = [];
    for (let n = 0; n < 31; n++) {
      const from = new Portal(`2001:db8:41:b:${n.toString(16)}::1`);
      exchanges.push((await from.post('/api/portal/session', { token: `forged-v6-${n}` })).statusCode);
    }
    expect(exchanges[29]).toBe(400);
    expect(exchanges[30]).toBe(429);
    await t.app.portalLinksSent();
    // The links are in the outbox: the worker sends them (decision 054).
    await workers.drain(t);
  });
});

describe('opening a link', () => {
  it('exchanges the token for an httpOnly, SameSite=Lax session cookie of its own, once', async () => {
    const { email, recipient } = await desk();
    const token = await requestToken(email);
    const browser = new Portal(ip());
    const res = await browser.post('/api/portal/session', { token });
    expect(res.statusCode, res.body).toBe(200);
    const cookie = res.cookies.find((c) => c.name === RECIPIENT_SESSION_COOKIE)!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(res.json()).toMatchObject({
      recipient: { id: recipient.id, firstName: 'Amara', notifyChannels: null },
      channelsOffered: ['email'],
    });
    expect(res.json<{ pickupCode: { code: string; qrCodeSvg: string } }>().pickupCode.code).toMatch(
      /^[A-Z0-9]{3}-[A-Z0-9]{3}$/,
    );
    // Used: another browser is told so; the browser already signed in as that recipient just opens the page.
    const again = await new Portal(ip()).post('/api/portal/session', { token });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'link_used' });
    expect((await browser.post('/api/portal/session', { token })).statusCode).toBe(200);
  });

  it('says an expired link has expired and a forged one is not valid; an empty one is a 400', async () => {
    const { email } = await desk();
    const token = await requestToken(email);
    await t.db
      .update(recipientLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(recipientLinks.tokenHash, hashToken(token)));
    const expired = await new Portal(ip()).post('/api/portal/session', { token });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ code: 'link_expired' });
    const forged = await new Portal(ip()).post('/api/portal/session', { token: 'x'.repeat(43) });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ code: 'link_invalid' });
    expect((await new Portal(ip()).post('/api/portal/session', { token: '' })).statusCode).toBe(400);
  });

  it('housekeeping deletes expired links and ended sessions, and nothing live', async () => {
    const { email } = await desk();
    const live = await requestToken(email);
    const old = await requestToken(email);
    await t.db
      .update(recipientLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(recipientLinks.tokenHash, hashToken(old)));
    await portalRepository.sweepExpired(t.db);
    const left = await t.db
      .select()
      .from(recipientLinks)
      .where(inArray(recipientLinks.tokenHash, [hashToken(live), hashToken(old)]));
    expect(left.map((l) => l.tokenHash)).toEqual([hashToken(live)]);
  });

  it('is limited per IP', async () => {
    const browser = new Portal(ip());
    const codes = [];
    for (let n = 0; n < 31; n++)
      codes.push((await browser.post('/api/portal/session', { token: `forged${n}` })).statusCode);
    expect(codes[29]).toBe(400);
    expect(codes[30]).toBe(429);
  });

  it('the arrival email carries a link to the page, good for 7 days, that opens it', async () => {
    const { admin, email, recipient } = await desk();
    expect((await admin.post('/api/mail-items', { type: 'Package', recipientId: recipient.id })).statusCode).toBe(201);
    await workers.drain(t);
    const mail = await smtp.waitFor(email, { subject: /arrived|ready|package/i });
    const token = /\/my\/open#token=([\w-]+)/.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    const [row] = await t.db
      .select()
      .from(recipientLinks)
      .where(eq(recipientLinks.tokenHash, hashToken(token!)));
    expect(row!.purpose).toBe('arrival');
    expect((row!.expiresAt.getTime() - Date.now()) / 86_400_000).toBeGreaterThan(6.9);
    const browser = new Portal(ip());
    expect((await browser.post('/api/portal/session', { token })).statusCode).toBe(200);
    const items = await browser.get('/api/portal/items');
    expect(items.json<{ items: Array<{ id: string }> }>().items).toHaveLength(1);
  });
});

describe('the session', () => {
  it('is a principal of its own: a staff cookie does not open the page, the portal cookie no staff call', async () => {
    const { admin, email } = await desk();
    expect((await admin.get('/api/portal/me')).statusCode).toBe(401);
    const browser = await signedIn(email);
    const staff = await t.app.inject({
      method: 'GET',
      url: '/api/recipients',
      headers: { cookie: browser.cookie!, 'x-organization-id': admin.organizationId! },
    });
    expect(staff.statusCode).toBe(401);
    expect((await new Portal().get('/api/portal/me')).statusCode).toBe(401);
  });

  it('stops working when the recipient is deactivated or erased, and on sign out', async () => {
    const { admin, email, recipient } = await desk();
    const a = await signedIn(email);
    expect((await admin.put(`/api/recipients/${recipient.id}`, { isActive: false })).statusCode).toBe(200);
    expect((await a.get('/api/portal/me')).statusCode).toBe(401);
    expect((await admin.put(`/api/recipients/${recipient.id}`, { isActive: true })).statusCode).toBe(200);
    const b = await signedIn(email);
    expect((await admin.post(`/api/recipients/${recipient.id}/erase`, { confirm: true })).statusCode).toBe(200);
    expect((await b.get('/api/portal/me')).statusCode).toBe(401);

    const second = await desk();
    const c = await signedIn(second.email);
    expect((await c.delete('/api/portal/session')).statusCode).toBe(204);
    expect(c.cookie).toBeUndefined();
  });

  it('refuses a cross-site write (CSRF rules)', async () => {
    const { email } = await desk();
    const browser = await signedIn(email);
    const res = await browser.request(
      'PUT',
      '/api/portal/preferences',
      { notifyChannels: ['email'] },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(res.statusCode).toBe(403);
  });
});

describe('the page', () => {
  it("lists waiting items oldest first with their location, past ones apart, and serves an item's photo to its recipient only", async () => {
    const { admin, email, recipient, other } = await desk();
    const room = await create(admin, '/api/mailrooms', { name: 'Lobby' });
    const shelf = await create(admin, `/api/mailrooms/${room.id}/locations`, { name: 'Shelf A', type: 'shelf' }).catch(
      () => null,
    );
    const first = await create(admin, '/api/mail-items', {
      type: 'Package',
      recipientId: recipient.id,
      trackingNumber: '1Z999',
      ...(shelf ? { locationId: shelf.id } : { mailroomId: room.id }),
    });
    const second = await create(admin, '/api/mail-items', { type: 'Letter', recipientId: recipient.id });
    await handedOver(admin, second.id);
    const theirs = await create(admin, '/api/mail-items', { type: 'Package', recipientId: other.id });
    const browser = await signedIn(email);
    const waiting = (await browser.get('/api/portal/items?state=waiting')).json<{
      items: Array<Record<string, unknown>>;
      total: number;
    }>();
    expect(waiting.total).toBe(1);
    expect(waiting.items[0]).toMatchObject({ id: first.id, trackingNumber: '1Z999', hasPhoto: false, heldUntil: null });
    expect(String(waiting.items[0]!.location)).toContain(shelf ? 'Shelf A' : 'Lobby');
    expect(JSON.stringify(waiting)).not.toContain('base64');
    const past = (await browser.get('/api/portal/items?state=past&limit=1')).json<{
      items: Array<{ id: string }>;
      total: number;
    }>();
    expect(past).toMatchObject({ total: 1, items: [{ id: second.id }] });
    expect((await browser.get('/api/portal/items?state=lost')).statusCode).toBe(400);
    expect((await browser.get('/api/portal/items?limit=500')).statusCode).toBe(400);
    expect((await browser.get(`/api/portal/items/${first.id}/photo`)).statusCode).toBe(404);
    expect((await browser.get(`/api/portal/items/${theirs.id}/photo/thumbnail`)).statusCode).toBe(404);
    expect((await browser.get('/api/portal/items/nope/photo')).statusCode).toBe(400);
  });

  it("holds an own waiting item until a date and lifts it; another recipient's or organization's item is a 404; bad dates a 400", async () => {
    const { admin, email, recipient, other } = await desk();
    const mine = await create(admin, '/api/mail-items', { type: 'Package', recipientId: recipient.id });
    const theirs = await create(admin, '/api/mail-items', { type: 'Package', recipientId: other.id });
    const elsewhere = await desk('Elsewhere');
    const foreign = await create(elsewhere.admin, '/api/mail-items', {
      type: 'Package',
      recipientId: elsewhere.recipient.id,
    });
    const browser = await signedIn(email);
    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const held = await browser.put(`/api/portal/items/${mine.id}/hold`, { until: inAWeek });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json<{ heldUntil: string | null }>().heldUntil).not.toBeNull();
    expect((await browser.put(`/api/portal/items/${mine.id}/hold`, { until: null })).json()).toMatchObject({
      heldUntil: null,
    });
    for (const id of [theirs.id, foreign.id, crypto.randomUUID()]) {
      expect((await browser.put(`/api/portal/items/${id}/hold`, { until: inAWeek })).statusCode).toBe(404);
    }
    expect((await browser.put(`/api/portal/items/${mine.id}/hold`, { until: '2020-01-01' })).statusCode).toBe(400);
    expect((await browser.put(`/api/portal/items/${mine.id}/hold`, { until: 'soon' })).statusCode).toBe(400);
    const far = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    expect((await browser.put(`/api/portal/items/${mine.id}/hold`, { until: far })).json()).toMatchObject({
      code: 'hold_too_long',
    });
  });

  it('changes the notification preference and the pickup code', async () => {
    const { email } = await desk();
    const browser = await signedIn(email);
    const before = (await browser.get('/api/portal/me')).json<{ pickupCode: { code: string } }>().pickupCode.code;
    const res = await browser.put('/api/portal/preferences', { notifyChannels: ['email'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ recipient: { notifyChannels: ['email'] } });
    expect((await browser.put('/api/portal/preferences', { notifyChannels: ['pigeon'] })).statusCode).toBe(400);
    const renewed = await browser.post('/api/portal/pickup-code');
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json<{ code: string }>().code).not.toBe(before);
  });

  it('offers exactly the channels the organization has and that reach the person, and accepts only those (decision 065)', async () => {
    const { admin, email } = await desk();
    const browser = await signedIn(email);
    const me = async () => (await browser.get('/api/portal/me')).json<PortalMe>();
    // The platform's mail server only: email, though the person has a phone (no SMS account).
    expect(await me()).toMatchObject({ channelsOffered: ['email'], smsAvailable: false });
    const refusals: Array<[unknown, string]> = [
      [[], NOTIFY_CHANNEL_MESSAGES.empty],
      [['sms'], NOTIFY_CHANNEL_MESSAGES.notOffered(['SMS'])],
      [['email', 'teams'], NOTIFY_CHANNEL_MESSAGES.notOffered(['Microsoft Teams'])],
      [['pigeon'], 'Channels must be email, sms, slack or teams'],
      ['email', 'notifyChannels must be a list of channels'],
    ];
    for (const [notifyChannels, message] of refusals) {
      const res = await browser.put('/api/portal/preferences', { notifyChannels });
      expect(res.statusCode, JSON.stringify(notifyChannels)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain(message);
    }
    expect((await me()).recipient.notifyChannels).toBeNull();

    // An SMS account and a Teams channel: both offered now, and a set of them is kept as chosen.
    await t.db.insert(integrations).values([
      {
        organizationId: admin.organizationId!,
        name: 'Texts',
        type: 'sms',
        config: { smsSettings: { accountSid: 'AC1', authToken: 'enc', fromNumber: '+15550001111' } },
      },
      {
        organizationId: admin.organizationId!,
        name: 'Lobby channel',
        type: 'teams',
        config: { teamsSettings: { webhookUrl: 'enc', mailroomId: null } },
      },
    ]);
    expect(await me()).toMatchObject({ channelsOffered: ['email', 'sms', 'teams'], smsAvailable: true });
    const chosen = await browser.put('/api/portal/preferences', { notifyChannels: ['teams', 'sms', 'sms'] });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json<PortalMe>().recipient.notifyChannels).toEqual(['sms', 'teams']);
    // Back to every channel offered.
    const all = await browser.put('/api/portal/preferences', { notifyChannels: null });
    expect(all.json<PortalMe>().recipient.notifyChannels).toBeNull();
  });

  it('shows the desk the preference the recipient chose, read-only: Edit Recipient cannot change it', async () => {
    const { admin, email, recipient } = await desk();
    const read = async () =>
      (await admin.get(`/api/recipients/${recipient.id}`)).json<{ notifyChannels: string[] | null }>().notifyChannels;
    expect(await read()).toBeNull();
    const browser = await signedIn(email);
    expect((await browser.put('/api/portal/preferences', { notifyChannels: ['email'] })).statusCode).toBe(200);
    expect(await read()).toEqual(['email']);
    // the list the desk opens Edit Recipient from carries it too
    const list = (await admin.get('/api/recipients?search=Okafor')).json<
      Array<{ id: string; notifyChannels: string[] | null }>
    >();
    expect(list.find((r) => r.id === recipient.id)?.notifyChannels).toEqual(['email']);
    // the desk's edit of the recipient leaves the recipient's own choice as it was
    const edited = await admin.put(`/api/recipients/${recipient.id}`, { unit: '9F', notifyChannels: ['sms'] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ unit: '9F', notifyChannels: ['email'] });
    expect(await read()).toEqual(['email']);
  });

  it("keeps the recipient's proxies with the desk's rules; another recipient's proxy is a 404", async () => {
    const { admin, email, other } = await desk();
    const browser = await signedIn(email);
    const added = await browser.post('/api/portal/proxies', { name: 'Kofi Mensah' });
    expect(added.statusCode).toBe(201);
    expect((await browser.post('/api/portal/proxies', { name: 'kofi mensah' })).statusCode).toBe(409);
    expect((await browser.post('/api/portal/proxies', { name: '' })).statusCode).toBe(400);
    expect((await browser.get('/api/portal/proxies')).json()).toEqual([
      { id: added.json<{ id: string }>().id, name: 'Kofi Mensah' },
    ]);
    const theirs = await create(admin, `/api/recipients/${other.id}/proxies`, { name: 'Someone' });
    expect((await browser.delete(`/api/portal/proxies/${theirs.id}`)).statusCode).toBe(404);
    expect((await browser.delete(`/api/portal/proxies/${added.json<{ id: string }>().id}`)).statusCode).toBe(204);
    for (let n = 0; n < 10; n++)
      expect((await browser.post('/api/portal/proxies', { name: `P${n}` })).statusCode).toBe(201);
    expect((await browser.post('/api/portal/proxies', { name: 'One too many' })).statusCode).toBe(409);
  });
});

describe("the page's writes have a rate (issue 41, item 7)", () => {
  it('200 hold toggles in a burst: the first ones pass, the rest answer 429 with Retry-After and write nothing', async () => {
    const { admin, email, recipient } = await desk('Toggle Towers');
    const item = await create(admin, '/api/mail-items', { type: 'Package', recipientId: recipient.id });
    const browser = await signedIn(email);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const statuses: number[] = [];
    let refusal: { status: number; retryAfter: string | undefined; body: unknown } | undefined;
    for (let i = 0; i < 200; i += 1) {
      const res = await browser.put(`/api/portal/items/${item.id}/hold`, { until: i % 2 === 0 ? tomorrow : null });
      statuses.push(res.statusCode);
      if (res.statusCode === 429 && !refusal) {
        refusal = { status: 429, retryAfter: res.headers['retry-after'] as string | undefined, body: res.json() };
      }
    }
    expect(statuses.slice(0, PORTAL_WRITES_PER_RECIPIENT).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(PORTAL_WRITES_PER_RECIPIENT).every((s) => s === 429)).toBe(true);
    expect(Number(refusal!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refusal!.retryAfter)).toBeLessThanOrEqual(60);
    expect(refusal!.body).toEqual({ message: PORTAL_WRITES_LIMITED, code: 'rate_limited' });
    // The item's history: logged, then one row per accepted toggle, not 200.
    const rows = await t.db.select().from(mailItemHistory).where(eq(mailItemHistory.mailItemId, item.id));
    expect(rows.filter((r) => r.action === 'held' || r.action === 'hold_lifted')).toHaveLength(
      PORTAL_WRITES_PER_RECIPIENT,
    );

    // Every write of the page shares it: expected packages, proxies, preferences, a new code.
    const writes = [
      await browser.post('/api/portal/expected', { trackingNumber: '1Z999AA10123456784' }),
      await browser.post('/api/portal/proxies', { name: 'Kemi Okafor' }),
      await browser.put('/api/portal/preferences', { notifyChannels: ['email'] }),
      await browser.post('/api/portal/pickup-code'),
    ];
    expect(writes.map((w) => w.statusCode)).toEqual([429, 429, 429, 429]);
    // Reads go on, and signing out is never refused.
    expect((await browser.get('/api/portal/items?state=waiting')).statusCode).toBe(200);
    expect((await browser.delete('/api/portal/session')).statusCode).toBe(204);
  });

  it("counts per recipient: another recipient of the organization writes on; past the organization's rate, nobody does", async () => {
    const { admin, email } = await desk('Shared Towers');
    const flooder = await signedIn(email);
    for (let i = 0; i < PORTAL_WRITES_PER_RECIPIENT + 5; i += 1) {
      await flooder.put('/api/portal/preferences', { notifyChannels: i % 2 ? ['email'] : null });
    }
    expect((await flooder.put('/api/portal/preferences', { notifyChannels: ['email'] })).statusCode).toBe(429);
    const neighbourEmail = `neighbour.${unique()}@example.com`;
    await create(admin, '/api/recipients', { firstName: 'Nia', lastName: 'Lee', email: neighbourEmail });
    const neighbour = await signedIn(neighbourEmail);
    const own = await neighbour.put('/api/portal/preferences', { notifyChannels: ['email'] });
    expect(own.statusCode, own.body).toBe(200);

    // Many sessions together (one script, many recipients' links): the organization's window is full.
    const orgId = admin.organizationId!;
    await t.asOwner(
      `update rate_limits set count = ${PORTAL_WRITES_PER_ORGANIZATION} where key = 'portal-write:organization:${orgId}'`,
    );
    const refused = await neighbour.put('/api/portal/preferences', { notifyChannels: null });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another organization's recipients are not counted with it.
    const elsewhere = await desk('Elsewhere Rate');
    const stranger = await signedIn(elsewhere.email);
    expect((await stranger.put('/api/portal/preferences', { notifyChannels: ['email'] })).statusCode).toBe(200);
  });
});

describe('the longest hold (issue 41, item 14)', () => {
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

  it('is an organization setting: 30 days unless an admin changes it, 1 to 365; members read it', async () => {
    const { admin } = await desk('Hold Rules');
    const orgId = admin.organizationId!;
    const url = `/api/organization-settings/${orgId}`;
    expect((await admin.get(url)).json()).toMatchObject({ longestHoldDays: 30 });
    const changed = await admin.put(url, { longestHoldDays: 10 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ longestHoldDays: 10 });
    for (const bad of [0, 366, 2.5, 'ten']) {
      const res = await admin.put(url, { longestHoldDays: bad });
      expect([bad, res.statusCode]).toEqual([bad, 400]);
    }
    const { client: member } = await joinAs(t, orgId);
    expect((await member.get(url)).json()).toMatchObject({ longestHoldDays: 10 });
    expect((await member.put(url, { longestHoldDays: 90 })).statusCode).toBe(403);
    const elsewhere = await desk('Hold Elsewhere');
    expect((await elsewhere.admin.put(url, { longestHoldDays: 90 })).statusCode).toBe(404);
    expect((await admin.get(url)).json()).toMatchObject({ longestHoldDays: 10 });
  });

  it('bounds every renewal from the first hold, with a clear message; the page is told the last day', async () => {
    const { admin, email, recipient } = await desk('Renewals');
    await admin.put(`/api/organization-settings/${admin.organizationId}`, { longestHoldDays: 10 });
    const item = await create(admin, '/api/mail-items', { type: 'Package', recipientId: recipient.id });
    const browser = await signedIn(email);
    const waiting = async () =>
      (await browser.get('/api/portal/items?state=waiting')).json<{
        items: Array<{ id: string; holdLatest: string }>;
      }>().items[0]!;
    expect((await waiting()).holdLatest).toBe(day(10));

    const first = await browser.put(`/api/portal/items/${item.id}/hold`, { until: day(7) });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ holdLatest: day(10) });
    const past = await browser.put(`/api/portal/items/${item.id}/hold`, { until: day(12) });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({
      code: 'hold_limit_reached',
      message: expect.stringMatching(
        /^The desk holds an item for at most 10 days in all, counted from the day it was first held\. This item can be held until \w{3}, \w{3} \d{1,2} at the latest\.$/,
      ),
    });
    expect((await browser.put(`/api/portal/items/${item.id}/hold`, { until: day(10) })).statusCode).toBe(200);

    // The probe's renewals: the first hold was 9 days ago (its history row says so); each renewal
    // asked for the date 30 days ahead, for ever. Now the bound is the first hold's day + 10.
    await t.asOwner(
      `update mail_item_history set created_at = now() - interval '9 days' where mail_item_id = '${item.id}' and action = 'held'`,
    );
    expect((await waiting()).holdLatest).toBe(day(1));
    expect((await browser.put(`/api/portal/items/${item.id}/hold`, { until: day(30) })).json()).toMatchObject({
      code: 'hold_limit_reached',
    });
    expect((await browser.put(`/api/portal/items/${item.id}/hold`, { until: day(1) })).statusCode).toBe(200);
    await t.asOwner(
      `update mail_item_history set created_at = now() - interval '40 days' where mail_item_id = '${item.id}' and action = 'held'`,
    );
    const done = await browser.put(`/api/portal/items/${item.id}/hold`, { until: day(0) });
    expect(done.statusCode).toBe(400);
    expect(done.json<{ message: string }>().message).toMatch(/held that long already: please collect it/);
    expect((await waiting()).holdLatest < day(0)).toBe(true);
    // Lifting a hold is always allowed.
    expect((await browser.put(`/api/portal/items/${item.id}/hold`, { until: null })).statusCode).toBe(200);
  });

  it("answers another recipient's long-held item 404, as before, not with its hold's history", async () => {
    const { admin, email, other } = await desk('Held Elsewhere');
    const theirs = await create(admin, '/api/mail-items', { type: 'Package', recipientId: other.id });
    await t.asOwner(
      `insert into mail_item_history (organization_id, mail_item_id, action, created_at)
       values ('${admin.organizationId}', '${theirs.id}', 'held', now() - interval '60 days')`,
    );
    const browser = await signedIn(email);
    expect((await browser.put(`/api/portal/items/${theirs.id}/hold`, { until: day(1) })).statusCode).toBe(404);
  });
});
