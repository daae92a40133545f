import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { mailItemHistory, mailItems, recipients } from '../../db/schema';
import { adminAndMember, Client, createTestApp, type TestApp } from '../../test/harness';
import { recipientsWhere } from './recipients.repository';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

type RecipientJson = {
  id: string;
  organizationId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  unit: string | null;
  department: string | null;
  recipientType: string;
  isActive: boolean;
  notifyChannels: string[] | null;
  createdAt: string;
  updatedAt: string;
};

const orgWithMember = () => adminAndMember(t);

async function addRecipient(c: Client, body: Record<string, unknown>) {
  const res = await c.post('/api/recipients', body);
  if (res.statusCode !== 201) throw new Error(`create recipient failed: ${res.statusCode} ${res.body}`);
  return res.json<RecipientJson>();
}

async function rowOf(id: string) {
  const [row] = await t.db.select().from(recipients).where(eq(recipients.id, id));
  return row;
}

async function countIn(organizationId: string) {
  const [row] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(recipients)
    .where(eq(recipients.organizationId, organizationId));
  return row!.n;
}

const names = (list: RecipientJson[]) => list.map((r) => `${r.firstName} ${r.lastName}`);

describe('POST /api/recipients', () => {
  it('creates a recipient for a member, normalized, with the defaults', async () => {
    const { member, org } = await orgWithMember();
    const res = await member.post('/api/recipients', {
      firstName: '  Amara ',
      lastName: 'Okafor',
      email: ' Amara.Okafor@Example.COM ',
      phone: '',
      unit: ' 12B ',
      department: null,
    });
    expect(res.statusCode).toBe(201);
    const r = res.json<RecipientJson>();
    expect(r).toMatchObject({
      organizationId: org.id,
      firstName: 'Amara',
      lastName: 'Okafor',
      email: 'amara.okafor@example.com',
      phone: null,
      unit: '12B',
      department: null,
      recipientType: 'guest',
      isActive: true,
      // until the recipient chooses on their own page: every channel the organization has
      notifyChannels: null,
    });
    expect(new Date(r.createdAt).toISOString()).toBe(r.createdAt);
    const get = await member.get(`/api/recipients/${r.id}`);
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual(r);
    expect((await member.get('/api/dashboard/stats')).json().activeRecipients).toBe(1);
  });

  it('keeps the type and an explicit isActive', async () => {
    const { admin } = await orgWithMember();
    const r = await addRecipient(admin, {
      firstName: 'Li',
      lastName: 'Wei',
      recipientType: 'resident',
      isActive: false,
    });
    expect(r).toMatchObject({ recipientType: 'resident', isActive: false, email: null });
  });

  it.each([
    [{ lastName: 'Okafor' }, 'First name is required'],
    [{ firstName: '   ', lastName: 'Okafor' }, 'First name is required'],
    [{ firstName: 'x'.repeat(101), lastName: 'Okafor' }, 'First name must be less than 100 characters'],
    [{ firstName: 'Amara' }, 'Last name is required'],
    [{ firstName: 'Amara', lastName: '' }, 'Last name is required'],
    [{ firstName: 'Amara', lastName: 'x'.repeat(101) }, 'Last name must be less than 100 characters'],
    [{ firstName: 'Amara', lastName: 'Okafor', email: 'not-an-email' }, 'Invalid email format'],
    [
      { firstName: 'Amara', lastName: 'Okafor', email: `${'a'.repeat(60)}@${'b'.repeat(200)}.com` },
      'Email must be less than 255 characters',
    ],
    [{ firstName: 'Amara', lastName: 'Okafor', phone: '1'.repeat(51) }, 'Phone must be less than 50 characters'],
    [{ firstName: 'Amara', lastName: 'Okafor', unit: 'u'.repeat(101) }, 'Unit must be less than 100 characters'],
    [
      { firstName: 'Amara', lastName: 'Okafor', department: 'd'.repeat(256) },
      'Department must be less than 255 characters',
    ],
    [
      { firstName: 'Amara', lastName: 'Okafor', recipientType: 'visitor' },
      'Recipient type must be guest, employee or resident',
    ],
  ])('refuses %o with its message and writes nothing', async (body, message) => {
    const { member, org } = await orgWithMember();
    const res = await member.post('/api/recipients', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, code: 'validation_error' });
    expect(await countIn(org.id)).toBe(0);
  });
});

describe('GET /api/recipients', () => {
  it('lists by last name, first name; searches name, email, unit and department; filters active; pages', async () => {
    const { admin, member, org } = await orgWithMember();
    await addRecipient(admin, { firstName: 'Zoe', lastName: 'Adams', unit: '100%', department: 'Finance' });
    await addRecipient(admin, { firstName: 'Amara', lastName: 'Okafor', email: 'amara@ex.com', unit: '4A' });
    await addRecipient(admin, { firstName: 'Ben', lastName: 'Adams', department: 'R_and_D', isActive: false });
    await addRecipient(admin, { firstName: 'Carl', lastName: 'Young', department: 'RxandxD', unit: '1000' });
    const other = new Client(t);
    await other.register();
    await other.createOrganization();
    await addRecipient(other, { firstName: 'Leak', lastName: 'Adams', department: 'R_and_D' });

    const all = await member.get('/api/recipients');
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-total-count']).toBe('4');
    expect(names(all.json())).toEqual(['Ben Adams', 'Zoe Adams', 'Amara Okafor', 'Carl Young']);
    expect(all.json<RecipientJson[]>().every((r) => r.organizationId === org.id)).toBe(true);

    const search = async (term: string, extra = '') => {
      const res = await member.get(`/api/recipients?search=${encodeURIComponent(term)}${extra}`);
      expect(res.statusCode).toBe(200);
      return { list: names(res.json()), total: res.headers['x-total-count'] };
    };
    expect((await search('adams')).list).toEqual(['Ben Adams', 'Zoe Adams']); // last name
    expect((await search('zoe ad')).list).toEqual(['Zoe Adams']); // full name
    expect((await search('AMARA@EX')).list).toEqual(['Amara Okafor']); // email
    expect((await search('4a')).list).toEqual(['Amara Okafor']); // unit
    expect((await search('finance')).list).toEqual(['Zoe Adams']); // department
    // % and _ mean themselves, not wildcards.
    expect((await search('100%')).list).toEqual(['Zoe Adams']);
    expect((await search('%')).list).toEqual(['Zoe Adams']);
    expect((await search('r_and')).list).toEqual(['Ben Adams']);
    expect((await search('_')).list).toEqual(['Ben Adams']);
    expect((await search('\\')).list).toEqual([]);
    expect(await search('nobody')).toEqual({ list: [], total: '0' });
    expect(await search('   ')).toEqual({ list: names(all.json()), total: '4' });

    expect(names((await member.get('/api/recipients?active=true')).json())).toEqual([
      'Zoe Adams',
      'Amara Okafor',
      'Carl Young',
    ]);
    expect(await search('adams', '&active=false')).toEqual({ list: ['Ben Adams'], total: '1' });

    const page = await member.get('/api/recipients?limit=2&offset=1');
    expect(names(page.json())).toEqual(['Zoe Adams', 'Amara Okafor']);
    expect(page.headers['x-total-count']).toBe('4');
    const past = await member.get('/api/recipients?limit=2&offset=10');
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('4');
  });

  it('orders equal names by id', async () => {
    const { admin } = await orgWithMember();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await addRecipient(admin, { firstName: 'Sam', lastName: 'Lee' })).id);
    const list = (await admin.get('/api/recipients')).json<RecipientJson[]>();
    expect(list.map((r) => r.id)).toEqual([...ids].sort());
  });

  it.each([
    ['limit=0', 'limit must be at least 1'],
    ['limit=501', 'limit must be at most 500'],
    ['limit=abc', 'limit must be a number'],
    ['offset=-1', 'offset must be 0 or more'],
    ['active=yes', "must be 'true' or 'false'"],
    [`search=${'s'.repeat(201)}`, 'search must be at most 200 characters'],
  ])('refuses %s with 400', async (query, message) => {
    const { member } = await orgWithMember();
    const res = await member.get(`/api/recipients?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('serves a search from the trigram index (the repository uses the indexed expression)', async () => {
    const { admin, org } = await orgWithMember();
    await t.db.execute(sql`
      insert into recipients (organization_id, first_name, last_name, email, unit)
      select ${org.id}, 'First' || g, 'Last' || g, 'person' || g || '@example.com', 'U' || g
      from generate_series(1, 3000) g`);
    const neighbour = new Client(t);
    await neighbour.register();
    const theirs = await neighbour.createOrganization();
    await t.db.execute(sql`
      insert into recipients (organization_id, first_name, last_name, email, unit)
      select ${theirs.id}, 'First' || g, 'Last' || g, 'person' || g || '@example.com', 'U' || g
      from generate_series(1, 30000) g`);
    await t.asOwner('analyze recipients');
    const query = t.db
      .select({ id: recipients.id })
      .from(recipients)
      .where(recipientsWhere(org.id, { search: 'person2999@' }))
      .toSQL();
    // With neighbours in the table, the planner picks the trigram index for a selective term by itself.
    const plan = await t.pool.query(`explain ${query.sql}`, query.params);
    expect(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')).toContain(
      'Bitmap Index Scan on recipients_search_trgm_idx',
    );
    const res = await admin.get('/api/recipients?search=person2999%40');
    expect(names(res.json())).toEqual(['First2999 Last2999']);
  });
});

describe('GET /api/recipients/summary', () => {
  it('counts all and active recipients of the organization only', async () => {
    const { admin, member } = await orgWithMember();
    expect((await member.get('/api/recipients/summary')).json()).toEqual({ total: 0, active: 0 });
    await addRecipient(admin, { firstName: 'A', lastName: 'One' });
    await addRecipient(admin, { firstName: 'B', lastName: 'Two' });
    await addRecipient(admin, { firstName: 'C', lastName: 'Three', isActive: false });
    const other = new Client(t);
    await other.register();
    await other.createOrganization();
    await addRecipient(other, { firstName: 'D', lastName: 'Four' });
    const res = await member.get('/api/recipients/summary');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ total: 3, active: 2 });
  });
});

describe('PUT /api/recipients/:id', () => {
  it('changes only the fields sent; {isActive} alone toggles without touching the rest', async () => {
    const { admin, member } = await orgWithMember();
    const r = await addRecipient(admin, {
      firstName: 'Amara',
      lastName: 'Okafor',
      email: 'amara@ex.com',
      unit: '4A',
      recipientType: 'resident',
    });
    const off = await member.put(`/api/recipients/${r.id}`, { isActive: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ ...r, isActive: false, updatedAt: expect.any(String) });
    expect((await member.get('/api/dashboard/stats')).json().activeRecipients).toBe(0);
    const on = await member.put(`/api/recipients/${r.id}`, { isActive: true });
    expect(on.json()).toMatchObject({ isActive: true, recipientType: 'resident' });

    const edit = await member.put(`/api/recipients/${r.id}`, {
      firstName: ' Amy ',
      email: '',
      department: 'Legal',
      recipientType: 'employee',
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({
      firstName: 'Amy',
      lastName: 'Okafor',
      email: null,
      unit: '4A',
      department: 'Legal',
      recipientType: 'employee',
    });
    expect(await rowOf(r.id)).toMatchObject({ firstName: 'Amy', email: null, recipientType: 'employee' });
    const same = await member.put(`/api/recipients/${r.id}`, {});
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ firstName: 'Amy' });
  });

  it.each([
    [{ firstName: '' }, 'First name is required'],
    [{ lastName: 'x'.repeat(101) }, 'Last name must be less than 100 characters'],
    [{ email: 'nope' }, 'Invalid email format'],
    [{ recipientType: 'boss' }, 'Recipient type must be guest, employee or resident'],
    [{ isActive: 'no' }, 'Invalid input: expected boolean, received string'],
  ])('refuses %o and changes nothing', async (body, message) => {
    const { admin } = await orgWithMember();
    const r = await addRecipient(admin, { firstName: 'Amara', lastName: 'Okafor' });
    const before = await rowOf(r.id);
    const res = await admin.put(`/api/recipients/${r.id}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await rowOf(r.id)).toEqual(before);
  });
});

describe('DELETE /api/recipients/:id', () => {
  it('is admin-only; mail items keep their history with the recipient emptied', async () => {
    const { admin, member, org } = await orgWithMember();
    const r = await addRecipient(admin, { firstName: 'Amara', lastName: 'Okafor' });
    const [item] = await t.db
      .insert(mailItems)
      .values({ organizationId: org.id, type: 'package', recipientId: r.id })
      .returning();
    await t.db
      .insert(mailItemHistory)
      .values({ organizationId: org.id, mailItemId: item!.id, action: 'created', newStatus: 'pending' });

    const refused = await member.delete(`/api/recipients/${r.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only organization admins can do this');
    expect(await rowOf(r.id)).toBeDefined();

    const res = await admin.delete(`/api/recipients/${r.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await rowOf(r.id)).toBeUndefined();
    const [kept] = await t.db.select().from(mailItems).where(eq(mailItems.id, item!.id));
    expect(kept).toMatchObject({ recipientId: null, type: 'package' });
    const history = await t.db
      .select()
      .from(mailItemHistory)
      .where(and(eq(mailItemHistory.organizationId, org.id), eq(mailItemHistory.mailItemId, item!.id)));
    expect(history).toHaveLength(1);
    expect((await admin.get(`/api/recipients/${r.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/recipients/${r.id}`)).statusCode).toBe(404);
  });
});

describe('tenancy and access', () => {
  it("answers 404 for another organization's recipient and changes nothing", async () => {
    const { admin } = await orgWithMember();
    const theirs = new Client(t);
    await theirs.register();
    await theirs.createOrganization('Elsewhere');
    const r = await addRecipient(theirs, { firstName: 'Private', lastName: 'Person', unit: '9' });
    const before = await rowOf(r.id);

    const read = await admin.get(`/api/recipients/${r.id}`);
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual({ message: 'Recipient not found', code: 'not_found' });
    expect((await admin.put(`/api/recipients/${r.id}`, { isActive: false, firstName: 'Hacked' })).statusCode).toBe(404);
    expect((await admin.delete(`/api/recipients/${r.id}`)).statusCode).toBe(404);
    expect(await rowOf(r.id)).toEqual(before);
    expect((await admin.get('/api/recipients?search=private')).json()).toEqual([]);
  });

  it('answers 400 for a malformed id', async () => {
    const { admin } = await orgWithMember();
    for (const res of [
      await admin.get('/api/recipients/not-a-uuid'),
      await admin.put('/api/recipients/not-a-uuid', { isActive: false }),
      await admin.delete('/api/recipients/not-a-uuid'),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Invalid id');
    }
  });

  it('answers 401 signed out and 403 to non-members of the organization', async () => {
    const { admin, org } = await orgWithMember();
    const r = await addRecipient(admin, { firstName: 'Amara', lastName: 'Okafor' });
    const anon = new Client(t);
    anon.organizationId = org.id;
    const outsider = new Client(t);
    await outsider.register();
    outsider.organizationId = org.id;
    const calls = (c: Client) => [
      c.get('/api/recipients'),
      c.get('/api/recipients/summary'),
      c.get(`/api/recipients/${r.id}`),
      c.post('/api/recipients', { firstName: 'X', lastName: 'Y' }),
      c.put(`/api/recipients/${r.id}`, { isActive: false }),
      c.delete(`/api/recipients/${r.id}`),
      c.post('/api/recipients/import/preview', { csv: 'first name,last name\nA,B' }),
      c.post('/api/recipients/import', { csv: 'first name,last name\nA,B' }),
    ];
    for (const res of await Promise.all(calls(anon))) expect(res.statusCode).toBe(401);
    for (const res of await Promise.all(calls(outsider))) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You are not a member of this organization');
    }
    expect(await rowOf(r.id)).toMatchObject({ isActive: true });
    expect(await countIn(org.id)).toBe(1);
  });
});

describe('dashboard figures after recipient writes', () => {
  it('are fresh at once even with caching on', async () => {
    const cached = await createTestApp({ CACHE_TTL_MS: '60000' });
    const c = new Client(cached);
    await c.register();
    await c.createOrganization();
    const active = async () => (await c.get('/api/dashboard/stats')).json().activeRecipients;
    expect(await active()).toBe(0);
    const res = await c.post('/api/recipients', { firstName: 'Amara', lastName: 'Okafor' });
    const r = res.json<RecipientJson>();
    expect(await active()).toBe(1);
    await c.put(`/api/recipients/${r.id}`, { isActive: false });
    expect(await active()).toBe(0);
    await c.put(`/api/recipients/${r.id}`, { isActive: true });
    expect(await active()).toBe(1);
    await c.post('/api/recipients/import', { csv: 'first name,last name\nBen,Adams\nCarl,Young' });
    expect(await active()).toBe(3);
    await c.delete(`/api/recipients/${r.id}`);
    expect(await active()).toBe(2);
  });
});

describe('the recipients list, built by PostgreSQL', () => {
  it('shows each recipient exactly as the single read does (every key, nulls, booleans, times)', async () => {
    const admin = new Client(t);
    await admin.register();
    await admin.createOrganization('Listed Court');
    const full = await admin.post('/api/recipients', {
      firstName: 'Zoë',
      lastName: 'O"Brien \\ Ünal',
      email: 'zoe@example.com',
      phone: '+1 555 0100',
      unit: '4B',
      department: 'Line\nbreak',
      recipientType: 'resident',
    });
    const bare = await admin.post('/api/recipients', { firstName: 'Al', lastName: 'Bare' });
    expect([full.statusCode, bare.statusCode]).toEqual([201, 201]);
    expect((await admin.put(`/api/recipients/${bare.json().id}`, { isActive: false })).statusCode).toBe(200);
    const list = await admin.get('/api/recipients');
    expect(list.headers['x-total-count']).toBe('2');
    const listed = list.json() as Array<{ id: string }>;
    expect(listed.map((r) => r.id)).toEqual([bare.json().id, full.json().id]); // by last name
    for (const r of listed) expect(r).toEqual((await admin.get(`/api/recipients/${r.id}`)).json());
  });
});
