import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  PICKUP_CODE_ALPHABET,
  PICKUP_CODE_INACTIVE,
  PICKUP_CODE_INVALID,
  PICKUP_CODE_NOT_FOUND,
  TOO_MANY_PICKUP_CODE_MISSES,
  formatPickupCode,
  normalisePickupCode,
} from '../../../contract';
import { recipients } from '../../db/schema';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';
import { PICKUP_CODE_MISSES_PER_ORGANIZATION, PICKUP_CODE_MISSES_PER_PERSON } from '../mail-items/pickup-code-misses';
import { handedOver } from '../../test/hand-over';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

type Lookup = {
  recipient: { id: string; firstName: string; lastName: string; unit: string | null };
  items: Array<{ id: string; status: string; arrivedAt: string; recipient: { id: string } | null }>;
};

const CODE = new RegExp(`^[${PICKUP_CODE_ALPHABET}]{3}-[${PICKUP_CODE_ALPHABET}]{3}$`);

/** An organization with an admin and a member, and a recipient with items in each status. */
async function desk(name = 'Harbor View') {
  const admin = new Client(t);
  await admin.register();
  await admin.createOrganization(name);
  const { client: member } = await joinAs(t, admin.organizationId!);
  const recipient = await create(admin, '/api/recipients', { firstName: 'Amara', lastName: 'Okafor', unit: '12B' });
  return { admin, member, recipient };
}

async function create(c: Client, url: string, body: object) {
  const res = await c.post(url, body);
  if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>();
}

async function logItem(c: Client, recipientId: string, status?: string) {
  const item = await create(c, '/api/mail-items', { type: 'Package', recipientId });
  // Delivered only by the hand-over (decision 053); other statuses by an edit.
  if (status === 'delivered') await handedOver(c, item.id);
  else if (status) {
    const res = await c.put(`/api/mail-items/${item.id}`, { status });
    expect(res.statusCode, res.body).toBe(200);
  }
  return item;
}

async function codeOf(c: Client, recipientId: string) {
  const res = await c.get(`/api/recipients/${recipientId}/pickup-code`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ recipientId: string; code: string; qrCodeSvg: string }>();
}

describe('pickup codes', () => {
  it('every recipient has one, six characters of the alphabet, shown as two groups of three with a QR of it', async () => {
    const { member, recipient } = await desk();
    const reply = await codeOf(member, recipient.id);
    expect(reply.recipientId).toBe(recipient.id);
    expect(reply.code).toMatch(CODE);
    expect(reply.qrCodeSvg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    const [row] = await t.db.select().from(recipients).where(eq(recipients.id, recipient.id));
    expect(formatPickupCode(row!.pickupCode)).toBe(reply.code);
  });

  it('imported recipients get codes too, all different within the organization', async () => {
    const { admin } = await desk();
    const csv = ['first name,last name', ...Array.from({ length: 300 }, (_, i) => `R${i},Import`)].join('\n');
    const res = await admin.post('/api/recipients/import', { csv });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.db
      .execute<{ n: number; distinct: number; bad: number }>(
        sql`
      select count(*)::int as n, count(distinct pickup_code)::int as distinct,
             count(*) filter (where pickup_code !~ ${`^[${PICKUP_CODE_ALPHABET}]{6}$`})::int as bad
      from recipients where organization_id = ${admin.organizationId}`,
      )
      .then((r) => r.rows);
    expect(row).toEqual({ n: 301, distinct: 301, bad: 0 });
  });

  it('are drawn again when another recipient of the organization holds the code', async () => {
    const { admin, recipient } = await desk();
    const taken = (await t.db.select().from(recipients).where(eq(recipients.id, recipient.id)))[0]!.pickupCode;
    // An insert asking for a code that is taken gets another one (the trigger draws again).
    const [other] = await t.db
      .insert(recipients)
      .values({ organizationId: admin.organizationId!, firstName: 'Ben', lastName: 'Ito', pickupCode: taken })
      .returning();
    expect(other!.pickupCode).not.toBe(taken);
    expect(other!.pickupCode).toMatch(new RegExp(`^[${PICKUP_CODE_ALPHABET}]{6}$`));
  });

  it('a regenerated code replaces the old one, which stops working at once', async () => {
    const { member, recipient } = await desk();
    await logItem(member, recipient.id);
    const before = await codeOf(member, recipient.id);
    const res = await member.post(`/api/recipients/${recipient.id}/pickup-code`);
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json<{ code: string }>();
    expect(after.code).toMatch(CODE);
    expect(after.code).not.toBe(before.code);
    expect((await codeOf(member, recipient.id)).code).toBe(after.code);

    const old = await member.get(`/api/pickups/lookup?code=${before.code}`);
    expect(old.statusCode).toBe(404);
    expect(old.json()).toEqual({ message: PICKUP_CODE_NOT_FOUND, code: 'not_found' });
    expect((await member.get(`/api/pickups/lookup?code=${after.code}`)).statusCode).toBe(200);
  });

  it('an erased recipient’s code stops working (decision 015: nothing of theirs opens anything)', async () => {
    const { admin, recipient } = await desk();
    const before = await codeOf(admin, recipient.id);
    const res = await admin.post(`/api/recipients/${recipient.id}/erase`, { confirm: true });
    expect(res.statusCode, res.body).toBe(200);
    expect((await admin.get(`/api/pickups/lookup?code=${before.code}`)).statusCode).toBe(404);
    expect((await codeOf(admin, recipient.id)).code).not.toBe(before.code);
  });

  it('answer 404 for another organization’s recipient, and change nothing there', async () => {
    const a = await desk('A');
    const b = await desk('B');
    const bCode = (await codeOf(b.admin, b.recipient.id)).code;
    for (const res of [
      await a.admin.get(`/api/recipients/${b.recipient.id}/pickup-code`),
      await a.admin.post(`/api/recipients/${b.recipient.id}/pickup-code`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Recipient not found', code: 'not_found' });
    }
    expect((await codeOf(b.admin, b.recipient.id)).code).toBe(bCode);
  });
});

describe('GET /api/pickups/lookup', () => {
  it('finds the recipient by code and shows all their waiting items, oldest first, and nobody else’s', async () => {
    const { member, admin, recipient } = await desk();
    const neighbour = await create(admin, '/api/recipients', { firstName: 'Ben', lastName: 'Ito' });
    const first = await logItem(member, recipient.id);
    const second = await logItem(member, recipient.id, 'notified');
    await logItem(member, recipient.id, 'delivered');
    await logItem(member, recipient.id, 'returned');
    await logItem(member, neighbour.id);
    const { code } = await codeOf(member, recipient.id);

    const res = await member.get(`/api/pickups/lookup?code=${encodeURIComponent(code)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<Lookup>();
    expect(body.recipient).toEqual({
      id: recipient.id,
      firstName: 'Amara',
      lastName: 'Okafor',
      email: null,
      unit: '12B',
      department: null,
      isActive: true,
      proxies: [],
    });
    expect(body.items.map((i) => [i.id, i.status])).toEqual([
      [first.id, 'pending'],
      [second.id, 'notified'],
    ]);
    // A list row: no photo bytes, no details beyond the row's.
    expect(Object.keys(body.items[0]!)).not.toContain('notes');
  });

  it('takes the code however it was typed or scanned: spaces, dashes and case do not matter', async () => {
    const { member, recipient } = await desk();
    const { code } = await codeOf(member, recipient.id);
    const bare = normalisePickupCode(code);
    for (const typed of [
      bare,
      bare.toLowerCase(),
      ` ${code} `,
      `${bare.slice(0, 2)} ${bare.slice(2, 4)} ${bare.slice(4)}`,
    ]) {
      const res = await member.get(`/api/pickups/lookup?code=${encodeURIComponent(typed)}`);
      expect(res.statusCode, typed).toBe(200);
      expect(res.json<Lookup>().recipient.id).toBe(recipient.id);
    }
  });

  it('answers an empty list for a recipient with nothing waiting', async () => {
    const { member, recipient } = await desk();
    const { code } = await codeOf(member, recipient.id);
    const res = await member.get(`/api/pickups/lookup?code=${code}`);
    expect(res.statusCode).toBe(200);
    expect(res.json<Lookup>().items).toEqual([]);
  });

  it('refuses what cannot be a code with 400 and the format, and a code nobody holds with 404', async () => {
    const { member } = await desk();
    for (const typed of ['', 'K7M4P', 'K7M4PXA', 'K0M-4PX', 'ABC 1234', 'x'.repeat(41)]) {
      const res = await member.get(`/api/pickups/lookup?code=${encodeURIComponent(typed)}`);
      expect(res.statusCode, typed).toBe(400);
      expect(res.json().message, typed).toContain(PICKUP_CODE_INVALID);
    }
    const missing = await member.get('/api/pickups/lookup');
    expect(missing.statusCode).toBe(400);

    const unknown = await member.get('/api/pickups/lookup?code=AAA-AAA');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: PICKUP_CODE_NOT_FOUND, code: 'not_found' });
  });

  it('answers 404 for another organization’s code, as for one nobody holds', async () => {
    const a = await desk('A');
    const b = await desk('B');
    await logItem(b.member, b.recipient.id);
    const bCode = (await codeOf(b.member, b.recipient.id)).code;
    const res = await a.member.get(`/api/pickups/lookup?code=${bCode}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: PICKUP_CODE_NOT_FOUND, code: 'not_found' });
  });

  it('a code that collides across organizations finds each organization’s own holder', async () => {
    const a = await desk('A');
    const b = await desk('B');
    const bCode = (await t.db.select().from(recipients).where(eq(recipients.id, b.recipient.id)))[0]!.pickupCode;
    await t.db.update(recipients).set({ pickupCode: bCode }).where(eq(recipients.id, a.recipient.id));
    const [aRow] = await t.db.select().from(recipients).where(eq(recipients.id, a.recipient.id));
    expect(aRow!.pickupCode).toBe(bCode); // unique in the organization only
    const res = await a.member.get(`/api/pickups/lookup?code=${bCode}`);
    expect(res.json<Lookup>().recipient.id).toBe(a.recipient.id);
  });
});

describe('proxies of a recipient', () => {
  it('are named, listed by name, shown with the lookup, and taken off again', async () => {
    const { member, recipient } = await desk();
    const url = `/api/recipients/${recipient.id}/proxies`;
    const chidi = await member.post(url, { name: '  Chidi Eze ' });
    expect(chidi.statusCode, chidi.body).toBe(201);
    expect(chidi.json()).toMatchObject({ name: 'Chidi Eze' });
    expect((await member.post(url, { name: 'Ada Obi' })).statusCode).toBe(201);
    expect((await member.get(url)).json<Array<{ name: string }>>().map((p) => p.name)).toEqual([
      'Ada Obi',
      'Chidi Eze',
    ]);

    const { code } = await codeOf(member, recipient.id);
    const lookup = (await member.get(`/api/pickups/lookup?code=${code}`)).json<{ recipient: { proxies: string[] } }>();
    expect(lookup.recipient.proxies).toEqual(['Ada Obi', 'Chidi Eze']);

    const gone = await member.delete(`${url}/${chidi.json<{ id: string }>().id}`);
    expect(gone.statusCode).toBe(204);
    expect((await member.get(url)).json<Array<{ name: string }>>().map((p) => p.name)).toEqual(['Ada Obi']);
    expect((await member.delete(`${url}/${chidi.json<{ id: string }>().id}`)).statusCode).toBe(404);
  });

  it('refuses a name twice (in any case), a blank or long name, and more than ten', async () => {
    const { member, recipient } = await desk();
    const url = `/api/recipients/${recipient.id}/proxies`;
    expect((await member.post(url, { name: 'Chidi Eze' })).statusCode).toBe(201);
    const twice = await member.post(url, { name: 'chidi eze' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ message: 'chidi eze is already on the list', code: 'proxy_exists' });
    for (const [name, message] of [
      ['  ', 'Name is required'],
      ['x'.repeat(256), 'Name must be less than 255 characters'],
    ]) {
      const res = await member.post(url, { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
    }
    for (let i = 2; i <= 10; i++) expect((await member.post(url, { name: `Proxy ${i}` })).statusCode).toBe(201);
    const eleventh = await member.post(url, { name: 'One too many' });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json()).toMatchObject({ code: 'too_many_proxies' });
    expect((await member.get(url)).json<unknown[]>()).toHaveLength(10);
  });

  it('answer 404 for another organization’s recipient and proxy, changing nothing', async () => {
    const a = await desk('A');
    const b = await desk('B');
    const proxy = (await b.member.post(`/api/recipients/${b.recipient.id}/proxies`, { name: 'Chidi Eze' })).json<{
      id: string;
    }>();
    for (const res of [
      await a.member.get(`/api/recipients/${b.recipient.id}/proxies`),
      await a.member.post(`/api/recipients/${b.recipient.id}/proxies`, { name: 'Mallory' }),
      await a.member.delete(`/api/recipients/${b.recipient.id}/proxies/${proxy.id}`),
      await a.member.delete(`/api/recipients/${a.recipient.id}/proxies/${proxy.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await b.member.get(`/api/recipients/${b.recipient.id}/proxies`)).json()).toEqual([
      { id: proxy.id, name: 'Chidi Eze' },
    ]);
  });
});

/** Codes of the alphabet nobody holds (the test's own recipients hold others): a guesser's tries. */
function wrongCodes(n: number, taken: string[]) {
  const codes: string[] = [];
  for (let i = 0; codes.length < n; i++) {
    const value = i * 104_729 + 7;
    const code = [0, 1, 2, 3, 4, 5].map((d) => PICKUP_CODE_ALPHABET[Math.floor(value / 22 ** d) % 22]).join('');
    if (!taken.includes(code) && !codes.includes(code)) codes.push(code);
  }
  return codes;
}

describe('guessing pickup codes (issue 41, item 14; decision 050)', () => {
  it('a person gets 10 codes a minute that match nobody, then 429 with Retry-After; right codes never count', async () => {
    const { admin, member, recipient } = await desk();
    await logItem(member, recipient.id);
    const { code } = await codeOf(member, recipient.id);
    // The desk's own work: many right codes in a row are never slowed.
    for (let n = 0; n < PICKUP_CODE_MISSES_PER_PERSON + 5; n++) {
      expect((await member.get(`/api/pickups/lookup?code=${code}`)).statusCode).toBe(200);
    }
    // The probe: wrong codes as fast as they go (450 a second before).
    const guesses = wrongCodes(PICKUP_CODE_MISSES_PER_PERSON + 1, [normalisePickupCode(code)]);
    for (const guess of guesses.slice(0, PICKUP_CODE_MISSES_PER_PERSON)) {
      expect((await member.get(`/api/pickups/lookup?code=${guess}`)).statusCode).toBe(404);
    }
    const refused = await member.get(`/api/pickups/lookup?code=${guesses.at(-1)}`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: TOO_MANY_PICKUP_CODE_MISSES, code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Refused too with the right code now: the guesser cannot tell a hit from a miss.
    expect((await member.get(`/api/pickups/lookup?code=${code}`)).statusCode).toBe(429);
    // Another person of the desk is not held up by it.
    expect((await admin.get(`/api/pickups/lookup?code=${code}`)).statusCode).toBe(200);
  });

  it('an organization gets 30 misses a minute across its people, and another organization is not touched', async () => {
    const { admin, recipient } = await desk();
    const other = await desk('Elsewhere');
    const { code } = await codeOf(admin, recipient.id);
    const guesses = wrongCodes(PICKUP_CODE_MISSES_PER_ORGANIZATION + 1, [normalisePickupCode(code)]);
    const people = await Promise.all([0, 1, 2, 3].map(async () => (await joinAs(t, admin.organizationId!)).client));
    for (const [n, guess] of guesses.slice(0, PICKUP_CODE_MISSES_PER_ORGANIZATION).entries()) {
      const res = await people[n % 3]!.get(`/api/pickups/lookup?code=${guess}`);
      expect(res.statusCode, guess).toBe(404);
    }
    const fourth = await people[3]!.get(`/api/pickups/lookup?code=${guesses.at(-1)}`);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.headers['retry-after']).toBeDefined();
    const theirs = (await codeOf(other.member, other.recipient.id)).code;
    expect((await other.member.get(`/api/pickups/lookup?code=${theirs}`)).statusCode).toBe(200);
  });

  it('a deactivated recipient’s code opens nothing at the desk: 409 that says so, and again once reactivated it works', async () => {
    const { admin, member, recipient } = await desk();
    await logItem(member, recipient.id);
    const { code } = await codeOf(member, recipient.id);
    const off = await admin.put(`/api/recipients/${recipient.id}`, { isActive: false });
    expect(off.statusCode, off.body).toBe(200);
    const res = await member.get(`/api/pickups/lookup?code=${code}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: PICKUP_CODE_INACTIVE, code: 'recipient_inactive' });
    expect(res.body).not.toContain('Amara');
    expect((await admin.put(`/api/recipients/${recipient.id}`, { isActive: true })).statusCode).toBe(200);
    expect((await member.get(`/api/pickups/lookup?code=${code}`)).statusCode).toBe(200);
  });
});

describe('GET /api/recipients/:id/pickup-lookup (a hand-over from an item’s row)', () => {
  const byRecipient = (c: Client, id: string) => c.get(`/api/recipients/${id}/pickup-lookup`);

  it('answers what the code’s lookup answers, to members and admins alike, and not signed out', async () => {
    const { admin, member, recipient } = await desk();
    const first = await logItem(member, recipient.id);
    const second = await logItem(member, recipient.id, 'notified');
    await logItem(member, recipient.id, 'delivered');
    await create(admin, `/api/recipients/${recipient.id}/proxies`, { name: 'Chidi Okafor' });
    const { code } = await codeOf(member, recipient.id);
    const byCode = await member.get(`/api/pickups/lookup?code=${code}`);

    for (const who of [member, admin]) {
      const res = await byRecipient(who, recipient.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual(byCode.json());
      expect(res.json<Lookup>().items.map((i) => i.id)).toEqual([first.id, second.id]);
    }
    const signedOut = await t.app.inject({
      method: 'GET',
      url: `/api/recipients/${recipient.id}/pickup-lookup`,
      headers: { 'x-organization-id': admin.organizationId! },
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it('finds a deactivated recipient’s waiting items, whose code opens nothing', async () => {
    const { admin, member, recipient } = await desk();
    const item = await logItem(member, recipient.id);
    const { code } = await codeOf(member, recipient.id);
    expect((await admin.put(`/api/recipients/${recipient.id}`, { isActive: false })).statusCode).toBe(200);

    expect((await member.get(`/api/pickups/lookup?code=${code}`)).statusCode).toBe(409);
    const res = await byRecipient(member, recipient.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<Lookup & { recipient: { isActive: boolean } }>();
    expect(body.recipient).toMatchObject({ id: recipient.id, firstName: 'Amara', isActive: false });
    expect(body.items.map((i) => i.id)).toEqual([item.id]);
  });

  it('refuses an id that is not one with 400, and answers 404 for an unknown one', async () => {
    const { member } = await desk();
    for (const id of ['not-an-id', '123', `${crypto.randomUUID()}x`]) {
      const res = await byRecipient(member, id);
      expect(res.statusCode, id).toBe(400);
      expect(res.json().code, id).toBe('validation_error');
    }
    const unknown = await byRecipient(member, crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Recipient not found', code: 'not_found' });
  });

  it('answers 404 for another organization’s recipient, as for one that does not exist, showing nothing of theirs', async () => {
    const a = await desk('A');
    const b = await desk('B');
    await logItem(b.member, b.recipient.id);
    for (const who of [a.member, a.admin]) {
      const res = await byRecipient(who, b.recipient.id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Recipient not found', code: 'not_found' });
    }
  });

  it('spends nothing of the pickup-code guessing budget, for an active or a deactivated recipient', async () => {
    const { admin, member, recipient } = await desk();
    const moved = await create(admin, '/api/recipients', { firstName: 'Omar', lastName: 'Said' });
    await logItem(member, recipient.id);
    await logItem(member, moved.id);
    expect((await admin.put(`/api/recipients/${moved.id}`, { isActive: false })).statusCode).toBe(200);
    const taken = await Promise.all([recipient.id, moved.id].map(async (id) => (await codeOf(admin, id)).code));

    // Twelve rows opened for a hand-over, more than a person's misses in a minute…
    for (let n = 0; n < 12; n++) {
      expect((await byRecipient(member, n % 2 ? moved.id : recipient.id)).statusCode).toBe(200);
    }
    // …and every one of the person's ten misses is still there, and no more.
    const guesses = wrongCodes(PICKUP_CODE_MISSES_PER_PERSON + 1, taken.map(normalisePickupCode));
    for (const guess of guesses.slice(0, PICKUP_CODE_MISSES_PER_PERSON)) {
      expect((await member.get(`/api/pickups/lookup?code=${guess}`)).statusCode, guess).toBe(404);
    }
    expect((await member.get(`/api/pickups/lookup?code=${guesses.at(-1)}`)).statusCode).toBe(429);
    // Once the code budget is spent, the rows still open: they guess nothing.
    expect((await byRecipient(member, moved.id)).statusCode).toBe(200);
  });
});
