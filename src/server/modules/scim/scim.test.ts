import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedScimToken, Recipient, ScimToken } from '../../../contract';
import { auditLog, platformLog, recipientSessions, recipients, scimRequests } from '../../db/schema';
import { filterShape } from './scim.routes';
import { scimRepository } from './scim.repository';
import { Client, adminAndMember, createTestApp, signUpWithOrganization, type TestApp } from '../../test/harness';

/**
 * SCIM 2.0 provisioning (issue 43 §2, decision 060), driven with the request sequences the
 * providers' documentation shows: Microsoft Entra ID's "Tutorial: Develop and plan provisioning for
 * a SCIM endpoint" (filter by userName, then POST; PATCH with "Replace", "True"/"False", paths with
 * value filters; groups by displayName with excludedAttributes=members, members added and removed)
 * and Okta's "SCIM 2.0 protocol reference" (filter, POST, PUT, PATCH active false, group PATCH with
 * members[value eq ...]).
 */

let t: TestApp;
const RATE_LIMIT = 40;

beforeAll(async () => {
  t = await createTestApp({ SCIM_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
});

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const KIND = 'urn:pigeonhole:params:scim:schemas:extension:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** An organization with a SCIM token, and a client that speaks SCIM with it. */
async function directory() {
  const { client: admin, org } = await signUpWithOrganization(t, 'Contoso Tower');
  const res = await admin.post('/api/scim/tokens', { name: 'Entra ID' });
  expect(res.statusCode, res.body).toBe(201);
  const token = res.json<CreatedScimToken>().token;
  return { admin, org, token, scim: scimClient(token) };
}

function scimClient(token: string) {
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.app.inject({
      method,
      url: `/scim/v2${url}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return res;
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, body: unknown) => call('POST', url, body),
    put: (url: string, body: unknown) => call('PUT', url, body),
    patch: (url: string, ...ops: unknown[]) => call('PATCH', url, { schemas: [PATCH_OP], Operations: ops }),
    delete: (url: string) => call('DELETE', url),
  };
}
type Scim = ReturnType<typeof scimClient>;

let seq = 0;
/** A user as Entra ID sends it (its default attribute mappings). */
function entraUser(overrides: Record<string, unknown> = {}) {
  seq += 1;
  const id = `${seq}${crypto.randomBytes(2).toString('hex')}`;
  return {
    schemas: [USER, ENTERPRISE],
    externalId: `ext-${id}`,
    userName: `ana.lopez${id}@contoso.example`,
    active: true,
    displayName: 'Ana Lopez',
    emails: [{ primary: true, type: 'work', value: `ana.lopez${id}@contoso.example` }],
    meta: { resourceType: 'User' },
    name: { formatted: 'Ana Lopez', familyName: 'Lopez', givenName: 'Ana' },
    phoneNumbers: [{ type: 'work', value: '+1 555 0100' }],
    addresses: [{ type: 'work', formatted: 'Building 4, 2nd floor' }],
    preferredLanguage: 'es-MX',
    [ENTERPRISE]: { department: 'Finance' },
    ...overrides,
  };
}

const recipientRow = async (id: string) => (await t.db.select().from(recipients).where(eq(recipients.id, id)))[0]!;
const auditCount = async (organizationId: string, action?: string) =>
  (
    await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, organizationId), action ? eq(auditLog.action, action) : undefined))
  ).length;

/** Entra's first step: is there a user with this userName? Then create it. */
async function provision(scim: Scim, user = entraUser()) {
  const found = await scim.get(`/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`);
  expect(found.statusCode, found.body).toBe(200);
  expect(found.json()).toMatchObject({ totalResults: 0, Resources: [] });
  const created = await scim.post('/Users', user);
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ id: string; userName: string; meta: { location: string } }>();
}

describe('tokens (Settings → Directory)', () => {
  it('creates a token shown once, lists it with its last use, revokes it; audited', async () => {
    const { client: admin, org } = await signUpWithOrganization(t);
    const res = await admin.post('/api/scim/tokens', { name: '  Okta  ' });
    expect(res.statusCode).toBe(201);
    const created = res.json<CreatedScimToken>();
    expect(created.token).toMatch(/^scim_[\w-]{43}$/);
    expect(created).toMatchObject({
      name: 'Okta',
      lastUsedAt: null,
      revokedAt: null,
      prefix: created.token.slice(0, 11),
    });

    const listed = (await admin.get('/api/scim/tokens')).json<ScimToken[]>();
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('token');
    expect(JSON.stringify(listed)).not.toContain(created.token);

    expect((await scimClient(created.token).get('/ServiceProviderConfig')).statusCode).toBe(200);
    const used = (await admin.get('/api/scim/tokens')).json<ScimToken[]>()[0]!;
    expect(used.lastUsedAt).not.toBeNull();

    const revoked = await admin.post(`/api/scim/tokens/${created.id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<ScimToken>().revokedAt).not.toBeNull();
    expect((await admin.post(`/api/scim/tokens/${created.id}/revoke`)).statusCode).toBe(200);
    expect(await auditCount(org.id, 'scim_token.created')).toBe(1);
    expect(await auditCount(org.id, 'scim_token.revoked')).toBe(1);

    const refused = await scimClient(created.token).get('/Users');
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['content-type']).toContain('application/scim+json');
    expect(refused.json()).toMatchObject({ schemas: [ERROR], status: '401' });
  });

  it('refuses an empty name with a clear message and writes nothing', async () => {
    const { client: admin } = await signUpWithOrganization(t);
    const res = await admin.post('/api/scim/tokens', { name: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Enter a name for the token, like the identity provider it is for');
    expect((await admin.get('/api/scim/tokens')).json()).toEqual([]);
  });

  it('is for admins only, and another organization’s token is 404', async () => {
    const { admin, member } = await adminAndMember(t);
    expect((await member.get('/api/scim/tokens')).statusCode).toBe(403);
    expect((await member.post('/api/scim/tokens', { name: 'x' })).statusCode).toBe(403);
    const mine = (await admin.post('/api/scim/tokens', { name: 'Entra' })).json<CreatedScimToken>();
    const { client: other } = await signUpWithOrganization(t);
    expect((await other.post(`/api/scim/tokens/${mine.id}/revoke`)).statusCode).toBe(404);
    expect((await admin.get('/api/scim/tokens')).json<ScimToken[]>()[0]!.revokedAt).toBeNull();
    expect((await new Client(t).get('/api/scim/tokens')).statusCode).toBe(401);
  });
});

describe('the bearer token', () => {
  it('refuses a missing, unknown or malformed token in SCIM’s error JSON, and logs it in the platform log', async () => {
    const before = (await t.db.select().from(platformLog).where(eq(platformLog.action, 'scim.token_refused'))).length;
    for (const authorization of [undefined, 'Bearer scim_nope', 'Basic abc']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/scim/v2/Users',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toContain('Bearer');
      expect(res.json()).toEqual({
        schemas: [ERROR],
        status: '401',
        detail: 'The SCIM bearer token is missing, unknown or revoked',
      });
    }
    const after = await t.db.select().from(platformLog).where(eq(platformLog.action, 'scim.token_refused'));
    expect(after.length - before).toBe(3);
    expect(after.slice(-3).map((e) => [e.kind, e.details?.reason])).toEqual([
      ['scim', 'missing'],
      ['scim', 'unknown'],
      ['scim', 'missing'],
    ]);
  });

  it('does not need the cookie CSRF check: a write with a foreign Origin is served', async () => {
    const { scim, token } = await directory();
    void scim;
    const res = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: {
        authorization: `Bearer ${token}`,
        origin: 'https://elsewhere.example',
        'content-type': 'application/scim+json',
      },
      payload: JSON.stringify(entraUser()),
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('limits each organization’s requests per minute (429 with Retry-After), not the others’', async () => {
    const a = await directory();
    const b = await directory();
    let last = 0;
    for (let i = 0; i < RATE_LIMIT + 1; i++) last = (await a.scim.get('/ServiceProviderConfig')).statusCode;
    expect(last).toBe(429);
    const res = await a.scim.get('/Users');
    expect(res.json()).toMatchObject({ schemas: [ERROR], status: '429' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await b.scim.get('/Users')).statusCode).toBe(200);
  });
});

describe('discovery', () => {
  it('answers ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const { scim } = await directory();
    const config = (await scim.get('/ServiceProviderConfig')).json();
    expect(config).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true },
    });
    const types = (await scim.get('/ResourceTypes')).json<{ Resources: Array<{ id: string }> }>();
    expect(types.Resources.map((r) => r.id)).toEqual(['User', 'Group']);
    expect((await scim.get('/ResourceTypes/User')).json()).toMatchObject({ endpoint: '/Users' });
    const all = (await scim.get('/Schemas')).json<{ Resources: Array<{ id: string }> }>();
    expect(all.Resources.map((s) => s.id)).toEqual([USER, ENTERPRISE, GROUP, KIND]);
    expect((await scim.get(`/Schemas/${USER}`)).statusCode).toBe(200);
    expect((await scim.get('/Schemas/nope')).json()).toMatchObject({ status: '404' });
  });
});

describe('Entra ID provisioning a user', () => {
  it("sets the recipient's language from preferredLanguage; the desk's or the person's later choice stays until the directory sends another (decision 066)", async () => {
    const { admin, scim } = await directory();
    const created = await provision(scim, entraUser({ preferredLanguage: 'zh-CN' }));
    expect((await recipientRow(created.id)).language).toBe('zh-Hans');
    // A tag we cannot write in leaves the language unset: the organization's default applies.
    const unknown = await provision(scim, entraUser({ preferredLanguage: 'tlh' }));
    expect(await recipientRow(unknown.id)).toMatchObject({ preferredLanguage: 'tlh', language: null });
    // The desk changes it (SCIM does not own it); the directory's next PATCH of another field keeps it.
    const edited = await admin.put(`/api/recipients/${created.id}`, { language: 'fr' });
    expect(edited.statusCode, edited.body).toBe(200);
    await scim.patch(`/Users/${created.id}`, { op: 'Replace', path: 'name.familyName', value: 'Lopez-Wu' });
    expect((await recipientRow(created.id)).language).toBe('fr');
    // A new preferredLanguage from the directory is the newer word.
    await scim.patch(`/Users/${created.id}`, { op: 'Replace', path: 'preferredLanguage', value: 'de-AT' });
    expect((await recipientRow(created.id)).language).toBe('de');
  });

  it('filters by userName, creates the recipient with every mapped attribute, marked as the directory’s', async () => {
    const { scim, admin, org } = await directory();
    const user = entraUser();
    const created = await provision(scim, user);
    expect(created).toMatchObject({
      userName: user.userName,
      externalId: user.externalId,
      active: true,
      name: { givenName: 'Ana', familyName: 'Lopez' },
      emails: [{ value: user.userName, type: 'work', primary: true }],
      phoneNumbers: [{ value: '+1 555 0100', type: 'work' }],
      addresses: [{ type: 'work', formatted: 'Building 4, 2nd floor' }],
      preferredLanguage: 'es-MX',
      [ENTERPRISE]: { department: 'Finance' },
      meta: { resourceType: 'User' },
    });
    expect(created.meta.location).toMatch(new RegExp(`/scim/v2/Users/${created.id}$`));
    const row = await recipientRow(created.id);
    expect(row).toMatchObject({
      managedBy: 'scim',
      firstName: 'Ana',
      lastName: 'Lopez',
      email: user.userName,
      unit: 'Building 4, 2nd floor',
      department: 'Finance',
      preferredLanguage: 'es-MX',
      // resolved to a language we write in, in the same write (decision 066)
      language: 'es',
      externalId: user.externalId,
      isActive: true,
      leftAt: null,
    });
    // The desk sees them, marked.
    const desk = (await admin.get(`/api/recipients/${created.id}`)).json<Recipient>();
    expect(desk).toMatchObject({ managedBy: 'scim', leftAt: null });
    // Entra's next cycle finds them by userName (any case) and by externalId.
    for (const filter of [`userName eq "${user.userName.toUpperCase()}"`, `externalId eq "${user.externalId}"`]) {
      const found = (await scim.get(`/Users?filter=${encodeURIComponent(filter)}`)).json();
      expect(found).toMatchObject({ totalResults: 1, Resources: [{ id: created.id }] });
    }
    expect(await auditCount(org.id, 'scim.user_created')).toBe(1);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, org.id), eq(auditLog.action, 'scim.user_created')));
    // Decision 015: by id only, never the person's data.
    expect(JSON.stringify(entry)).not.toContain('Lopez');
    expect(entry).toMatchObject({ targetId: created.id, actorId: null });
  });

  it('fills the last name sensibly when familyName is missing', async () => {
    const { scim } = await directory();
    const a = await provision(scim, entraUser({ name: { givenName: 'Mary Ann' }, displayName: 'Mary Ann Evans' }));
    expect(await recipientRow(a.id)).toMatchObject({ firstName: 'Mary Ann', lastName: 'Evans' });
    const n = seq + 100;
    const b = await provision(
      scim,
      entraUser({ name: undefined, displayName: undefined, userName: `jo.march${n}@x.example` }),
    );
    expect(await recipientRow(b.id)).toMatchObject({ firstName: 'Jo', lastName: `March${n}` });
    const c = await provision(
      scim,
      entraUser({ name: { givenName: 'Cher' }, displayName: 'Cher', userName: `cher${seq}@x.example` }),
    );
    expect(await recipientRow(c.id)).toMatchObject({ firstName: 'Cher', lastName: '-' });
  });

  it('adopts a hand-typed recipient with the same email instead of duplicating them', async () => {
    const { scim, admin, org } = await directory();
    const user = entraUser();
    const typed = (
      await admin.post('/api/recipients', {
        firstName: 'Ana',
        lastName: 'L.',
        email: user.userName.toUpperCase(),
        recipientType: 'resident',
      })
    ).json<Recipient>();
    const created = await provision(scim, user);
    expect(created.id).toBe(typed.id);
    expect(await recipientRow(typed.id)).toMatchObject({
      managedBy: 'scim',
      lastName: 'Lopez',
      recipientType: 'resident',
    });
    const all = (await admin.get(`/api/recipients?search=${encodeURIComponent(user.userName)}`)).json<Recipient[]>();
    expect(all).toHaveLength(1);
    expect(await auditCount(org.id, 'scim.user_adopted')).toBe(1);
  });

  it('answers uniqueness 409 for a second userName or externalId, and writes nothing', async () => {
    const { scim, org } = await directory();
    const user = entraUser();
    await provision(scim, user);
    const again = await scim.post('/Users', { ...user, externalId: 'other' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      schemas: [ERROR],
      status: '409',
      scimType: 'uniqueness',
      detail: 'A user with this userName already exists',
    });
    const sameExternal = await scim.post('/Users', entraUser({ externalId: user.externalId }));
    expect(sameExternal.json()).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect(await auditCount(org.id, 'scim.user_created')).toBe(1);
  });

  it('refuses bad input in SCIM’s format: invalidValue, invalidSyntax, invalidFilter', async () => {
    const { scim } = await directory();
    expect((await scim.post('/Users', { schemas: [USER] })).json()).toMatchObject({
      status: '400',
      scimType: 'invalidValue',
      detail: 'userName is required',
    });
    expect(
      (await scim.post('/Users', entraUser({ emails: [{ type: 'work', value: 'not-an-email' }] }))).json(),
    ).toMatchObject({ scimType: 'invalidValue' });
    expect((await scim.post('/Users', entraUser({ active: 'maybe' }))).json()).toMatchObject({
      scimType: 'invalidValue',
    });
    const broken = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: {
        authorization: (await directory()).token ? `Bearer ${(await directory()).token}` : '',
        'content-type': 'application/scim+json',
      },
      payload: '{"userName":',
    });
    expect(broken.json()).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
    for (const filter of ['userName eq', 'name.familyName co "Lo"', 'emails[type eq "work"]']) {
      const res = await scim.get(`/Users?filter=${encodeURIComponent(filter)}`);
      expect(res.statusCode, filter).toBe(400);
      expect(res.json()).toMatchObject({ schemas: [ERROR], scimType: 'invalidFilter' });
    }
    expect(
      (
        await scim.patch('/Users/00000000-0000-4000-8000-000000000000', { op: 'Jump', path: 'active', value: false })
      ).json(),
    ).toMatchObject({ scimType: 'invalidSyntax' });
  });

  it('pages with startIndex and count', async () => {
    const { scim } = await directory();
    for (let i = 0; i < 5; i++) await provision(scim);
    const page = (await scim.get('/Users?startIndex=2&count=2')).json<{
      totalResults: number;
      startIndex: number;
      itemsPerPage: number;
      Resources: unknown[];
    }>();
    expect(page).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
    expect((await scim.get('/Users?startIndex=5&count=10')).json()).toMatchObject({ itemsPerPage: 1 });
    expect((await scim.get('/Users?count=0')).json()).toMatchObject({ totalResults: 5, itemsPerPage: 0 });
  });
});

describe('PATCH as Entra ID and Okta send it', () => {
  it('Entra: "Replace" capitalised, paths with value filters, the enterprise URN, one audit entry per change', async () => {
    const { scim, org } = await directory();
    const { id } = await provision(scim);
    const before = await auditCount(org.id);
    const res = await scim.patch(
      `/Users/${id}`,
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'ana.new@contoso.example' },
      { op: 'Replace', path: 'name.familyName', value: 'Lopez-Garcia' },
      { op: 'Replace', path: `${ENTERPRISE}:department`, value: 'Treasury' },
      { op: 'Add', path: 'addresses[type eq "work"].formatted', value: 'Building 7' },
      { op: 'Replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0199' },
      { op: 'Replace', path: 'preferredLanguage', value: 'en-US' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await recipientRow(id)).toMatchObject({
      email: 'ana.new@contoso.example',
      lastName: 'Lopez-Garcia',
      department: 'Treasury',
      unit: 'Building 7',
      phone: '+1 555 0100',
      preferredLanguage: 'en-US',
      language: 'en',
    });
    expect((await auditCount(org.id)) - before).toBe(1);
    // The same PATCH again changes nothing and records nothing.
    await scim.patch(`/Users/${id}`, { op: 'Replace', path: 'name.familyName', value: 'Lopez-Garcia' });
    expect((await auditCount(org.id)) - before).toBe(1);
  });

  it('Entra: a value object without a path, and a work email added to a user who had none', async () => {
    const { scim } = await directory();
    const { id } = await provision(scim, entraUser({ emails: [] }));
    await scim.patch(`/Users/${id}`, {
      op: 'Add',
      path: 'emails[type eq "work"].value',
      value: 'late@contoso.example',
    });
    expect((await recipientRow(id)).email).toBe('late@contoso.example');
    await scim.patch(`/Users/${id}`, {
      op: 'Replace',
      value: { 'name.givenName': 'Anita', displayName: 'Anita Lopez', [`${ENTERPRISE}:department`]: 'Legal' },
    });
    expect(await recipientRow(id)).toMatchObject({ firstName: 'Anita', department: 'Legal' });
    await scim.patch(`/Users/${id}`, { op: 'Remove', path: `${ENTERPRISE}:department` });
    expect((await recipientRow(id)).department).toBeNull();
  });

  it('Entra: active "False" deactivates (left, page sessions ended, waiting items stay) and "True" reactivates', async () => {
    const { scim, admin, org } = await directory();
    const { id } = await provision(scim);
    const item = await admin.post('/api/mail-items', { recipientId: id, type: 'package', courierCompany: 'UPS' });
    expect(item.statusCode, item.body).toBe(201);
    await t.db.insert(recipientSessions).values({
      sid: crypto.randomBytes(32).toString('hex'),
      organizationId: org.id,
      recipientId: id,
      expire: new Date(Date.now() + 3600_000),
    });

    const res = await scim.patch(`/Users/${id}`, { op: 'Replace', path: 'active', value: 'False' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ active: false });
    const row = await recipientRow(id);
    expect(row).toMatchObject({ isActive: false, managedBy: 'scim' });
    expect(row.leftAt).not.toBeNull();
    expect(await t.db.select().from(recipientSessions).where(eq(recipientSessions.recipientId, id))).toEqual([]);
    // Their waiting item stays theirs, still waiting.
    const kept = (await admin.get(`/api/mail-items/${item.json<{ id: string }>().id}`)).json<{
      recipientId: string;
      status: string;
    }>();
    expect(kept).toMatchObject({ recipientId: id, status: item.json<{ status: string }>().status });
    expect((await admin.get(`/api/recipients/${id}`)).json<Recipient>().leftAt).not.toBeNull();
    expect(await auditCount(org.id, 'scim.user_deactivated')).toBe(1);
    // Still found (Entra reads it back), inactive.
    expect((await scim.get(`/Users/${id}`)).json()).toMatchObject({ active: false });

    await scim.patch(`/Users/${id}`, { op: 'Replace', path: 'active', value: 'True' });
    expect(await recipientRow(id)).toMatchObject({ isActive: true, leftAt: null });
    expect(await auditCount(org.id, 'scim.user_reactivated')).toBe(1);
  });

  it('Okta: {op: "replace", value: {active: false}} and a full PUT', async () => {
    const { scim } = await directory();
    const user = entraUser();
    const { id } = await provision(scim, user);
    await scim.patch(`/Users/${id}`, { op: 'replace', value: { id, active: false } });
    expect((await recipientRow(id)).isActive).toBe(false);
    const put = await scim.put(`/Users/${id}`, {
      schemas: [USER],
      id,
      userName: user.userName,
      name: { givenName: 'Ana', familyName: 'Lopez' },
      emails: [{ primary: true, value: user.userName, type: 'work' }],
      active: true,
    });
    expect(put.statusCode, put.body).toBe(200);
    // PUT replaces: what it left out is cleared.
    expect(await recipientRow(id)).toMatchObject({
      isActive: true,
      phone: null,
      unit: null,
      department: null,
      externalId: null,
    });
  });
});

describe('DELETE and other organizations', () => {
  it('DELETE deactivates without erasing; the user then answers 404 and its userName is free again', async () => {
    const { scim, admin, org } = await directory();
    const user = entraUser();
    const { id } = await provision(scim, user);
    const res = await scim.delete(`/Users/${id}`);
    expect(res.statusCode).toBe(204);
    const row = await recipientRow(id);
    expect(row).toMatchObject({ isActive: false, firstName: 'Ana', lastName: 'Lopez', email: user.userName });
    expect(row.leftAt).not.toBeNull();
    expect((await admin.get(`/api/recipients/${id}`)).statusCode).toBe(200);
    const gone = await scim.get(`/Users/${id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ schemas: [ERROR], status: '404' });
    expect((await scim.delete(`/Users/${id}`)).statusCode).toBe(404);
    expect(await auditCount(org.id, 'scim.user_deactivated')).toBe(1);
    // Provisioned again later: a new recipient (the old one is not managed-by-hand, so not adopted).
    const again = await scim.post('/Users', user);
    expect(again.statusCode, again.body).toBe(201);
  });

  it('another organization’s user and group ids answer 404, unknown ids too', async () => {
    const a = await directory();
    const b = await directory();
    const { id } = await provision(a.scim);
    const group = (await a.scim.post('/Groups', { schemas: [GROUP], displayName: 'Finance' })).json<{ id: string }>();
    for (const res of [
      await b.scim.get(`/Users/${id}`),
      await b.scim.patch(`/Users/${id}`, { op: 'Replace', path: 'active', value: false }),
      await b.scim.put(`/Users/${id}`, entraUser()),
      await b.scim.delete(`/Users/${id}`),
      await b.scim.get(`/Groups/${group.id}`),
      await b.scim.delete(`/Groups/${group.id}`),
      await b.scim.get('/Users/not-a-uuid'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ schemas: [ERROR], status: '404' });
    }
    expect((await recipientRow(id)).isActive).toBe(true);
    const members = await b.scim.patch(
      `/Groups/${(await b.scim.post('/Groups', { schemas: [GROUP], displayName: 'Ops' })).json<{ id: string }>().id}`,
      {
        op: 'Add',
        path: 'members',
        value: [{ value: id }],
      },
    );
    expect(members.statusCode).toBe(404);
    expect(
      (
        await b.scim.get(
          `/Users?filter=${encodeURIComponent(`externalId eq "${(await recipientRow(id)).externalId}"`)}`,
        )
      ).json(),
    ).toMatchObject({ totalResults: 0 });
  });
});

describe('groups', () => {
  it('Entra: finds by displayName with excludedAttributes=members, creates, adds and removes members', async () => {
    const { scim, org } = await directory();
    const u1 = await provision(scim);
    const u2 = await provision(scim);
    const filter = encodeURIComponent('displayName eq "Finance"');
    expect((await scim.get(`/Groups?excludedAttributes=members&filter=${filter}`)).json()).toMatchObject({
      totalResults: 0,
    });
    const created = await scim.post('/Groups', {
      schemas: [GROUP],
      externalId: 'g-1',
      displayName: 'Finance',
      members: [],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();
    const found = (await scim.get(`/Groups?excludedAttributes=members&filter=${filter}`)).json<{
      Resources: Array<Record<string, unknown>>;
    }>();
    expect(found.Resources[0]).toMatchObject({ id, displayName: 'Finance' });
    expect(found.Resources[0]).not.toHaveProperty('members');

    await scim.patch(`/Groups/${id}`, { op: 'Add', path: 'members', value: [{ value: u1.id }, { value: u2.id }] });
    expect(
      (await scim.get(`/Groups/${id}`))
        .json<{ members: Array<{ value: string }> }>()
        .members.map((m) => m.value)
        .sort(),
    ).toEqual([u1.id, u2.id].sort());
    expect((await scim.get(`/Users/${u1.id}`)).json()).toMatchObject({ groups: [{ value: id, display: 'Finance' }] });
    await scim.patch(`/Groups/${id}`, { op: 'Remove', path: 'members', value: [{ value: u1.id }] });
    expect(
      (await scim.get(`/Groups/${id}`)).json<{ members: Array<{ value: string }> }>().members.map((m) => m.value),
    ).toEqual([u2.id]);
    await scim.patch(`/Groups/${id}`, { op: 'Replace', path: 'displayName', value: 'Finance & Treasury' });
    expect((await scim.get(`/Groups/${id}`)).json()).toMatchObject({ displayName: 'Finance & Treasury' });
    expect(await auditCount(org.id, 'scim.group_updated')).toBe(3);

    expect((await scim.post('/Groups', { schemas: [GROUP], displayName: 'finance & treasury' })).json()).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
    });
    expect((await scim.get(`/Groups?filter=${encodeURIComponent('displayName co "Fin"')}`)).json()).toMatchObject({
      scimType: 'invalidFilter',
    });
    expect((await scim.delete(`/Groups/${id}`)).statusCode).toBe(204);
    expect((await scim.get(`/Groups/${id}`)).statusCode).toBe(404);
    expect(await auditCount(org.id, 'scim.group_deleted')).toBe(1);
  });

  it('Okta: members[value eq "…"] removal, replace of members and of the name by value object, PUT', async () => {
    const { scim } = await directory();
    const u1 = await provision(scim);
    const u2 = await provision(scim);
    const { id } = (
      await scim.post('/Groups', { schemas: [GROUP], displayName: 'Household 12B', members: [{ value: u1.id }] })
    ).json<{ id: string }>();
    await scim.patch(`/Groups/${id}`, { op: 'remove', path: `members[value eq "${u1.id}"]` });
    expect((await scim.get(`/Groups/${id}`)).json()).toMatchObject({ members: [] });
    await scim.patch(`/Groups/${id}`, { op: 'replace', path: 'members', value: [{ value: u2.id }] });
    await scim.patch(`/Groups/${id}`, { op: 'replace', value: { id, displayName: 'Household 12C' } });
    expect((await scim.get(`/Groups/${id}`)).json()).toMatchObject({
      displayName: 'Household 12C',
      members: [{ value: u2.id }],
    });
    const put = await scim.put(`/Groups/${id}`, {
      schemas: [GROUP],
      displayName: 'Household 12C',
      members: [{ value: u1.id }, { value: u2.id }],
    });
    expect(put.json<{ members: unknown[] }>().members).toHaveLength(2);
  });
});

describe('the desk and the fields the directory owns', () => {
  it('refuses an edit of an owned field with 409 managed_by_directory, allows the desk’s own fields', async () => {
    const { scim, admin } = await directory();
    const { id } = await provision(scim);
    const refused = await admin.put(`/api/recipients/${id}`, { lastName: 'Changed', email: 'x@y.example' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'managed_by_directory' });
    expect(refused.json().message).toBe(
      "Last name, Email are kept by the organization's directory (SCIM provisioning): change them there, and the next sync brings them here.",
    );
    expect((await recipientRow(id)).lastName).toBe('Lopez');
    expect((await admin.put(`/api/recipients/${id}`, { isActive: false })).statusCode).toBe(409);
    // The form sends owned fields unchanged with the type: allowed.
    const row = await recipientRow(id);
    const ok = await admin.put(`/api/recipients/${id}`, {
      firstName: row.firstName,
      lastName: row.lastName,
      recipientType: 'resident',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<Recipient>()).toMatchObject({ recipientType: 'resident', managedBy: 'scim' });
  });

  it('guards any feed alike: a roster-managed recipient is refused the same way', async () => {
    const { client: admin, org } = await signUpWithOrganization(t);
    const r = (await admin.post('/api/recipients', { firstName: 'Rhea', lastName: 'Roster' })).json<Recipient>();
    await t.db.update(recipients).set({ managedBy: 'roster', externalId: 'R-1' }).where(eq(recipients.id, r.id));
    void org;
    const refused = await admin.put(`/api/recipients/${r.id}`, { unit: '4B' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('the scheduled roster import');
  });
});

describe('the request log (Settings → Directory → Recent calls)', () => {
  type Logged = {
    method: string;
    path: string;
    filter: string | null;
    status: number;
    resourceId: string | null;
    durationMs: number;
    token: { name: string } | null;
  };
  const logOf = async (admin: Client, count: number) => {
    // Written after the reply: wait for the rows.
    await expect
      .poll(async () => Number((await admin.get('/api/scim/requests?limit=100')).headers['x-total-count']))
      .toBeGreaterThanOrEqual(count);
    const res = await admin.get('/api/scim/requests?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Logged[]>();
  };

  it('records every call, reads too, with its status, and never a filter’s value', async () => {
    const { admin, scim, org } = await directory();
    const user = entraUser();
    const { id } = await provision(scim, user); // a read (filter) and a write (POST)
    expect((await scim.get(`/Users/${id}`)).statusCode).toBe(200);
    expect((await scim.get('/Users/4f0c0000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await scim.post('/Users', { schemas: [USER] })).statusCode).toBe(400);
    const log = await logOf(admin, 5);
    expect(log).toHaveLength(5);
    // Newest first.
    expect(log.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/Users', 400],
      ['GET', '/Users/4f0c0000-0000-4000-8000-000000000000', 404],
      ['GET', `/Users/${id}`, 200],
      ['POST', '/Users', 201],
      ['GET', '/Users', 200],
    ]);
    expect(log[3]).toMatchObject({ resourceId: id, token: { name: 'Entra ID' } });
    expect(log[1]!.resourceId).toBe('4f0c0000-0000-4000-8000-000000000000');
    expect(log[4]).toMatchObject({ filter: 'userName eq', resourceId: null });
    expect(log.every((r) => r.durationMs >= 0)).toBe(true);
    // Something else than an id in the path (an email) is not kept either.
    expect((await scim.get(`/Users/${encodeURIComponent(user.userName)}`)).statusCode).toBe(404);
    const [emailed] = await logOf(admin, 6);
    expect(emailed).toMatchObject({ path: '/Users/…', status: 404, resourceId: null });
    // The userName filtered on is nowhere in the log.
    expect(JSON.stringify(await logOf(admin, 6))).not.toContain(user.userName.split('@')[0]);
    // Writes keep their one audit entry; reads write none.
    expect(await auditCount(org.id, 'scim.user_created')).toBe(1);
    expect(await auditCount(org.id)).toBe(2); // the token's creation and the user's

    // Pages, the total in X-Total-Count.
    const page = await admin.get('/api/scim/requests?limit=2&offset=3');
    expect(page.headers['x-total-count']).toBe('6');
    expect(page.json<Logged[]>().map((r) => r.status)).toEqual([200, 201]);
    const bad = await admin.get('/api/scim/requests?limit=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('limit must be at least 1');
  });

  it('is admins’ only, and another organization reads its own calls, never these', async () => {
    const { admin, member, org } = await adminAndMember(t, 'Log Tower');
    const token = (await admin.post('/api/scim/tokens', { name: 'Okta' })).json<CreatedScimToken>().token;
    expect((await scimClient(token).get('/Groups')).statusCode).toBe(200);
    await logOf(admin, 1);
    expect((await member.get('/api/scim/requests')).statusCode).toBe(403);
    const other = await directory();
    const theirs = await other.admin.get('/api/scim/requests');
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toEqual([]);
    // Naming the first organization in the header: refused, as every admin list (docs/roles.md).
    const crossed = await other.admin.get('/api/scim/requests', { 'x-organization-id': org.id });
    expect(crossed.statusCode).toBe(403);
  });

  it('does not record a refused token (the platform log has it), and a revoked token’s calls stay listed', async () => {
    const { admin, scim, token } = await directory();
    expect((await scimClient('scim_nope').get('/Users')).statusCode).toBe(401);
    expect((await scim.get('/Users')).statusCode).toBe(200);
    const log = await logOf(admin, 1);
    expect(log).toHaveLength(1);
    void token;
  });
});

describe('the request log’s retention and filters', () => {
  it('keeps a filter’s attribute and operator only, Entra’s and Okta’s forms alike', () => {
    expect(filterShape('userName eq "ana@contoso.example"')).toBe('userName eq');
    expect(filterShape('externalId eq "00u1"')).toBe('externalId eq');
    expect(filterShape('emails[type eq "work"].value eq "ana@contoso.example"')).toBe('emails[…].value eq');
    expect(filterShape('displayName eq "Finance" and externalId eq "x"')).toBe('displayName eq');
    expect(filterShape('not a filter')).toBe('(unreadable)');
    expect(filterShape(undefined)).toBeNull();
  });

  it('purges calls older than 30 days, every organization’s, and keeps the others', async () => {
    const { admin, scim, org } = await directory();
    expect((await scim.get('/Users')).statusCode).toBe(200);
    await expect.poll(async () => (await admin.get('/api/scim/requests')).json<unknown[]>().length).toBe(1);
    await t.db.insert(scimRequests).values({
      organizationId: org.id,
      method: 'GET',
      path: '/Users',
      status: 200,
      durationMs: 1,
      createdAt: new Date(Date.now() - 31 * 86_400_000),
    });
    expect((await admin.get('/api/scim/requests')).json<unknown[]>()).toHaveLength(2);
    await scimRepository.purgeRequests(t.db, new Date(Date.now() - 30 * 86_400_000));
    expect((await admin.get('/api/scim/requests')).json<unknown[]>()).toHaveLength(1);
  });
});

describe('groups change recipients', () => {
  const departmentOf = async (id: string) => (await recipientRow(id)).department;

  it('Entra: a department group’s name becomes its members’ department; the user’s own wins; leaving clears only the group’s', async () => {
    const { scim, org } = await directory();
    const plain = await provision(scim, entraUser({ [ENTERPRISE]: {} }));
    const own = await provision(scim); // the enterprise extension's department: Finance
    const { id } = (await scim.post('/Groups', { schemas: [GROUP], displayName: 'Logistics', members: [] })).json<{
      id: string;
    }>();
    const before = await auditCount(org.id, 'scim.user_updated');
    await scim.patch(`/Groups/${id}`, { op: 'Add', path: 'members', value: [{ value: plain.id }, { value: own.id }] });
    expect(await departmentOf(plain.id)).toBe('Logistics');
    expect(await departmentOf(own.id)).toBe('Finance');
    expect(await auditCount(org.id, 'scim.user_updated')).toBe(before + 1);
    // The SCIM user still shows only its own department; a PATCH that does not touch it keeps the group's.
    const json = (await scim.get(`/Users/${plain.id}`)).json<Record<string, unknown>>();
    expect(json[ENTERPRISE]).toEqual({});
    await scim.patch(`/Users/${plain.id}`, { op: 'Replace', path: 'preferredLanguage', value: 'fr-CA' });
    expect(await departmentOf(plain.id)).toBe('Logistics');
    // A rename follows.
    await scim.patch(`/Groups/${id}`, { op: 'Replace', path: 'displayName', value: 'Logistics & Mail' });
    expect(await departmentOf(plain.id)).toBe('Logistics & Mail');
    // The user's own department, sent later, wins; removed again, the group's comes back.
    await scim.patch(`/Users/${plain.id}`, {
      op: 'Add',
      path: `${ENTERPRISE}:department`,
      value: 'Legal',
    });
    expect(await departmentOf(plain.id)).toBe('Legal');
    await scim.patch(`/Users/${plain.id}`, { op: 'Remove', path: `${ENTERPRISE}:department` });
    expect(await departmentOf(plain.id)).toBe('Logistics & Mail');
    // Leaving clears it; the user's own stays.
    await scim.patch(`/Groups/${id}`, {
      op: 'Remove',
      path: 'members',
      value: [{ value: plain.id }, { value: own.id }],
    });
    expect(await departmentOf(plain.id)).toBeNull();
    expect(await departmentOf(own.id)).toBe('Finance');
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, org.id), eq(auditLog.targetId, plain.id)));
    expect(entries.filter((e) => (e.after as { group?: string }).group === id).length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(entries)).not.toContain('Logistics');
  });

  it('Okta: members[value eq] removal and a group’s deletion clear what it set; another department group takes over', async () => {
    const { scim } = await directory();
    const u = await provision(scim, entraUser({ [ENTERPRISE]: {} }));
    const a = (
      await scim.post('/Groups', { schemas: [GROUP], displayName: 'Accounts', members: [{ value: u.id }] })
    ).json<{ id: string }>();
    const b = (
      await scim.post('/Groups', { schemas: [GROUP], displayName: 'Billing', members: [{ value: u.id }] })
    ).json<{ id: string }>();
    expect(await departmentOf(u.id)).toBe('Accounts');
    await scim.patch(`/Groups/${a.id}`, { op: 'remove', path: `members[value eq "${u.id}"]` });
    expect(await departmentOf(u.id)).toBe('Billing');
    expect((await scim.delete(`/Groups/${b.id}`)).statusCode).toBe(204);
    expect(await departmentOf(u.id)).toBeNull();
    expect((await recipientRow(u.id)).departmentGroupId).toBeNull();

    // The user's own department equal to the group's name: theirs from then on, kept when they leave.
    const c = (
      await scim.post('/Groups', { schemas: [GROUP], displayName: 'Customs', members: [{ value: u.id }] })
    ).json<{ id: string }>();
    expect(await departmentOf(u.id)).toBe('Customs');
    await scim.patch(`/Users/${u.id}`, { op: 'replace', value: { [`${ENTERPRISE}:department`]: 'Customs' } });
    expect((await recipientRow(u.id)).departmentGroupId).toBeNull();
    await scim.patch(`/Groups/${c.id}`, { op: 'remove', path: `members[value eq "${u.id}"]` });
    expect(await departmentOf(u.id)).toBe('Customs');
  });

  it('a household’s members may collect each other’s mail at the desk (Okta add, Entra remove)', async () => {
    const { scim, admin } = await directory();
    const ana = await provision(scim, entraUser({ name: { givenName: 'Ana', familyName: 'Lopez' } }));
    const ben = await provision(scim, entraUser({ name: { givenName: 'Ben', familyName: 'Okafor' } }));
    const created = await scim.post('/Groups', {
      schemas: [GROUP, KIND],
      displayName: 'Flat 12B',
      [KIND]: { kind: 'household' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ [KIND]: { kind: 'household' } });
    const { id } = created.json<{ id: string }>();
    await scim.patch(`/Groups/${id}`, { op: 'add', path: 'members', value: [{ value: ana.id }, { value: ben.id }] });
    // A household sets no department.
    expect((await recipientRow(ana.id)).department).toBe('Finance');
    const lookup = await admin.get(`/api/recipients/${ana.id}/pickup-lookup`);
    expect(lookup.statusCode, lookup.body).toBe(200);
    expect(lookup.json<{ recipient: { proxies: string[] } }>().recipient.proxies).toEqual(['Ben Okafor']);

    // Signatures off (decision 053), as handovers.test does: only who collects is tried here.
    const off = await admin.put(`/api/organization-settings/${admin.organizationId}`, {
      handoverRequiresSignature: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    const item = await admin.post('/api/mail-items', { type: 'package', recipientId: ana.id });
    expect(item.statusCode, item.body).toBe(201);
    const handOver = (collectorName: string) =>
      admin.post('/api/handovers', {
        itemIds: [item.json<{ id: string }>().id],
        collectorName,
        identifiedBy: 'id_checked',
      });
    await scim.patch(`/Groups/${id}`, { op: 'Remove', path: 'members', value: [{ value: ben.id }] });
    expect(
      (await admin.get(`/api/recipients/${ana.id}/pickup-lookup`)).json<{ recipient: { proxies: string[] } }>()
        .recipient.proxies,
    ).toEqual([]);
    const refused = await handOver('Ben Okafor');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'proxy_reason_required' });
    await scim.patch(`/Groups/${id}`, { op: 'Add', path: 'members', value: [{ value: ben.id }] });
    const ok = await handOver('Ben Okafor');
    expect(ok.statusCode, ok.body).toBe(201);

    const wrong = await scim.post('/Groups', { schemas: [GROUP, KIND], displayName: 'X', [KIND]: { kind: 'flat' } });
    expect(wrong.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
  });
});
