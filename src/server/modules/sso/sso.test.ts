import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OIDC_CALLBACK_PATH, SSO_MESSAGES, ssoStartUrl, type SsoConnection } from '../../../contract';
import {
  auditLog,
  organizationDomains,
  organizationMembers,
  ssoConnections,
  ssoSignInRequests,
  userIdentities,
  userInvitations,
  users,
} from '../../db/schema';
import { Client, signUpWithOrganization, type TestApp, createTestApp } from '../../test/harness';
import { hashToken } from '../../lib/tokens';
import { SSO_STATE_COOKIE } from './browser-binding';
import { followProvider, startTestOidcProvider, type TestPerson } from './test-oidc-provider';

/**
 * Single sign-on through OpenID Connect (issue 43, decision 059) against a real provider on
 * loopback (oidc-provider, signing with its own keys): the app's openid-client discovers it, sends
 * the browser there with state, nonce and PKCE, and checks what comes back.
 */

const APP_URL = 'http://pigeonhole.test';
const CALLBACK = `${APP_URL}${OIDC_CALLBACK_PATH}`;
const CLIENT = { client_id: 'pigeonhole', client_secret: 'provider-secret-1', redirect_uris: [CALLBACK] };
const OTHER_CLIENT = { client_id: 'another-app', client_secret: 'provider-secret-2', redirect_uris: [CALLBACK] };

let t: TestApp;
let idp: Awaited<ReturnType<typeof startTestOidcProvider>>;

beforeAll(async () => {
  idp = await startTestOidcProvider([CLIENT, OTHER_CLIENT]);
  t = await createTestApp({ APP_URL, ALLOW_PRIVATE_TARGETS: 'true', SSO_ALLOW_HTTP_ISSUERS: 'true' });
});
afterAll(() => idp?.close());

const uid = () => crypto.randomBytes(4).toString('hex');
const freshDomain = () => `sso-${uid()}.example.org`;

async function verifyDomain(organizationId: string, domain: string) {
  await t.db.insert(organizationDomains).values({
    organizationId,
    domain,
    verificationToken: uid(),
    status: 'verified',
    verifiedAt: new Date(),
    verifiedBy: 'dns',
  });
}

/** An organization with a verified domain and OIDC set up through the API by its admin. */
async function ssoOrganization(settings: Record<string, unknown> = {}) {
  const { client: admin, account, org } = await signUpWithOrganization(t, `SSO ${uid()}`);
  const domain = freshDomain();
  await verifyDomain(org.id, domain);
  const res = await admin.put('/api/sso/connection', {
    protocol: 'oidc',
    enabled: true,
    oidcIssuer: idp.issuer,
    oidcClientId: CLIENT.client_id,
    oidcClientSecret: CLIENT.client_secret,
    ...settings,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { admin, account, org, domain, connection: res.json<SsoConnection>() };
}

const person = (domain: string, extra: Partial<TestPerson> = {}): TestPerson => ({
  sub: `sub-${uid()}`,
  email: `ana.${uid()}@${domain}`,
  email_verified: true,
  given_name: 'Ana',
  family_name: 'Lima',
  ...extra,
});

/** The browser's trip: our start, the provider's pages; answers the callback URL and the state cookie. */
async function toProvider(email: string, who: TestPerson | undefined, invitation?: string) {
  idp.signInAs(who);
  const start = await t.app.inject({ method: 'GET', url: ssoStartUrl(email, invitation) });
  expect(start.statusCode, start.body).toBe(302);
  const location = String(start.headers.location);
  expect(location.startsWith(idp.issuer), location).toBe(true);
  const stateCookie = start.cookies.find((c) => c.name === SSO_STATE_COOKIE)?.value;
  const callbackUrl = await followProvider(location, CALLBACK);
  return { callbackUrl, stateCookie: stateCookie! };
}

async function callback(callbackUrl: string, stateCookie: string | undefined) {
  const url = new URL(callbackUrl);
  const res = await t.app.inject({
    method: 'GET',
    url: url.pathname + url.search,
    headers: stateCookie ? { cookie: `${SSO_STATE_COOKIE}=${stateCookie}` } : {},
  });
  expect(res.statusCode, res.body).toBe(302);
  const sid = res.cookies.find((c) => c.name === 'pigeonhole.sid')?.value;
  return { location: String(res.headers.location), sid };
}

async function signIn(email: string, who: TestPerson, invitation?: string) {
  const { callbackUrl, stateCookie } = await toProvider(email, who, invitation);
  return callback(callbackUrl, stateCookie);
}

const usersWithEmail = (email: string) => t.db.select().from(users).where(eq(users.email, email.toLowerCase()));
const identitiesOf = (connectionId: string) =>
  t.db.select().from(userIdentities).where(eq(userIdentities.connectionId, connectionId));
const membersOf = (organizationId: string) =>
  t.db.select().from(organizationMembers).where(eq(organizationMembers.organizationId, organizationId));

/** Nothing was created by a refused sign-in: no user, no identity, no new member. */
async function expectNothingCreated(email: string, connectionId: string, organizationId: string, members = 1) {
  expect(await usersWithEmail(email)).toHaveLength(0);
  expect(await identitiesOf(connectionId)).toHaveLength(0);
  expect(await membersOf(organizationId)).toHaveLength(members);
}

describe('signing in through the provider', () => {
  it('a first sign-in creates the account and the membership with the default role; the second reuses them', async () => {
    const { org, domain, connection } = await ssoOrganization();
    const ana = person(domain);
    const first = await signIn(ana.email!, ana);
    expect(first.location).toBe('/');
    expect(first.sid).toBeTruthy();

    // The session is a real one: the app answers the signed-in user, without a second factor.
    const browser = new Client(t);
    browser.cookie = `pigeonhole.sid=${first.sid}`;
    const me = await browser.get('/api/auth/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: ana.email, firstName: 'Ana', lastName: 'Lima', emailVerified: true });
    const orgs = await browser.get('/api/organizations');
    expect(orgs.json<Array<{ id: string; role: string }>>()).toEqual([
      expect.objectContaining({ id: org.id, role: 'member' }),
    ]);

    const [user] = await usersWithEmail(ana.email!);
    expect(await identitiesOf(connection.id)).toEqual([
      expect.objectContaining({ userId: user!.id, subject: ana.sub, organizationId: org.id }),
    ]);
    const joined = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, org.id), eq(auditLog.action, 'member.joined_by_sso')));
    expect(joined).toHaveLength(1);

    // Again: the same user through the identity link, no second membership or identity.
    const second = await signIn(ana.email!, ana);
    expect(second.location).toBe('/');
    expect(second.sid).toBeTruthy();
    expect(second.sid).not.toBe(first.sid);
    expect(await usersWithEmail(ana.email!)).toHaveLength(1);
    expect(await identitiesOf(connection.id)).toHaveLength(1);
    expect(await membersOf(org.id)).toHaveLength(2);
  });

  it('the mapped group makes an admin; others get the default role', async () => {
    const { org, domain } = await ssoOrganization({ adminClaim: 'groups', adminValue: 'mailroom-admins' });
    const boss = person(domain, { groups: ['staff', 'mailroom-admins'] });
    const clerk = person(domain, { groups: ['staff'] });
    expect((await signIn(boss.email!, boss)).location).toBe('/');
    expect((await signIn(clerk.email!, clerk)).location).toBe('/');
    const roles = Object.fromEntries((await membersOf(org.id)).map((m) => [m.userId, m.role]));
    const [bossUser] = await usersWithEmail(boss.email!);
    const [clerkUser] = await usersWithEmail(clerk.email!);
    expect(roles[bossUser!.id]).toBe('admin');
    expect(roles[clerkUser!.id]).toBe('member');
  });

  it('an existing password account of the address is linked, not duplicated', async () => {
    const { org, domain, connection } = await ssoOrganization();
    const email = `existing.${uid()}@${domain}`;
    const existing = await new Client(t).register({ email, username: `existing_${uid()}` });
    const signed = await signIn(email, person(domain, { email }));
    expect(signed.location).toBe('/');
    expect(await usersWithEmail(email)).toHaveLength(1);
    expect((await identitiesOf(connection.id))[0]!.userId).toBe(existing.user.id);
    expect((await membersOf(org.id)).some((m) => m.userId === existing.user.id)).toBe(true);
  });
});

describe('invitations through the provider', () => {
  it('an invitation to an address under single sign-on is accepted through the provider, with the invited role', async () => {
    const { org, domain } = await ssoOrganization();
    const invited = person(domain);
    const token = `invite-${uid()}-${uid()}`;
    const [invitation] = await t.db
      .insert(userInvitations)
      .values({
        organizationId: org.id,
        email: invited.email!,
        role: 'admin',
        token: hashToken(token),
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    const signed = await signIn(invited.email!, invited, token);
    expect(signed.location).toBe('/');
    const [user] = await usersWithEmail(invited.email!);
    const member = (await membersOf(org.id)).find((m) => m.userId === user!.id);
    expect(member?.role).toBe('admin');
    const [used] = await t.db.select().from(userInvitations).where(eq(userInvitations.id, invitation!.id));
    expect(used!.usedAt).not.toBeNull();

    // The same invitation again (a used one) is refused by words, nothing more created.
    const other = person(domain);
    const again = await signIn(other.email!, other, token);
    expect(again.location).toBe('/login?sso_error=invitation');
    expect(await usersWithEmail(other.email!)).toHaveLength(0);
  });
});

describe('refused with a clear reason and nothing created', () => {
  it('a wrong state', async () => {
    const { org, domain, connection } = await ssoOrganization();
    const ana = person(domain);
    const { callbackUrl, stateCookie } = await toProvider(ana.email!, ana);
    const forged = new URL(callbackUrl);
    forged.searchParams.set('state', 'not-the-state');
    expect((await callback(forged.href, stateCookie)).location).toBe('/login?sso_error=expired');
    await expectNothingCreated(ana.email!, connection.id, org.id);
  });

  it('a callback without the browser cookie of the sign-in (started in another browser)', async () => {
    const { org, domain, connection } = await ssoOrganization();
    const ana = person(domain);
    const { callbackUrl } = await toProvider(ana.email!, ana);
    expect((await callback(callbackUrl, undefined)).location).toBe('/login?sso_error=expired');
    await expectNothingCreated(ana.email!, connection.id, org.id);
  });

  it('a replayed callback (the same state and code again)', async () => {
    const { org, domain } = await ssoOrganization();
    const ana = person(domain);
    const { callbackUrl, stateCookie } = await toProvider(ana.email!, ana);
    expect((await callback(callbackUrl, stateCookie)).location).toBe('/');
    const again = await callback(callbackUrl, stateCookie);
    expect(again.location).toBe('/login?sso_error=expired');
    expect(again.sid).toBeUndefined();
    expect(await membersOf(org.id)).toHaveLength(2);
  });

  it('a nonce that is not the one sent', async () => {
    const { org, domain, connection } = await ssoOrganization();
    const ana = person(domain);
    const { callbackUrl, stateCookie } = await toProvider(ana.email!, ana);
    const state = new URL(callbackUrl).searchParams.get('state')!;
    await t.db
      .update(ssoSignInRequests)
      .set({ nonce: 'another-nonce' })
      .where(eq(ssoSignInRequests.stateHash, hashToken(state)));
    expect((await callback(callbackUrl, stateCookie)).location).toBe('/login?sso_error=refused');
    await expectNothingCreated(ana.email!, connection.id, org.id);
  });

  it('another issuer named in the answer (a mix-up)', async () => {
    const { org, domain, connection } = await ssoOrganization();
    const ana = person(domain);
    const { callbackUrl, stateCookie } = await toProvider(ana.email!, ana);
    const mixed = new URL(callbackUrl);
    expect(mixed.searchParams.get('iss')).toBe(idp.issuer);
    mixed.searchParams.set('iss', 'http://127.0.0.1:1/other-issuer');
    expect((await callback(mixed.href, stateCookie)).location).toBe('/login?sso_error=refused');
    await expectNothingCreated(ana.email!, connection.id, org.id);
  });

  it('a code issued to another client (audience)', async () => {
    const { admin, org, domain, connection } = await ssoOrganization();
    const ana = person(domain);
    const { callbackUrl, stateCookie } = await toProvider(ana.email!, ana);
    // The organization now names another client: the code and the token were for the first one.
    const changed = await admin.put('/api/sso/connection', {
      protocol: 'oidc',
      enabled: true,
      oidcIssuer: idp.issuer,
      oidcClientId: OTHER_CLIENT.client_id,
      oidcClientSecret: OTHER_CLIENT.client_secret,
    });
    expect(changed.statusCode).toBe(200);
    expect((await callback(callbackUrl, stateCookie)).location).toBe('/login?sso_error=refused');
    await expectNothingCreated(ana.email!, connection.id, org.id);
  });

  it('an address of a domain the organization has not verified', async () => {
    const { org, domain, connection } = await ssoOrganization();
    const stranger = person('unverified.example.net');
    // The sign-in starts from a verified address; the provider answers another one.
    const { callbackUrl, stateCookie } = await toProvider(`someone@${domain}`, stranger);
    expect((await callback(callbackUrl, stateCookie)).location).toBe('/login?sso_error=unverified_domain');
    await expectNothingCreated(stranger.email!, connection.id, org.id);
  });

  it('an address the provider itself says is unverified', async () => {
    const { org, domain, connection } = await ssoOrganization();
    const ana = person(domain, { email_verified: false });
    const { callbackUrl, stateCookie } = await toProvider(ana.email!, ana);
    expect((await callback(callbackUrl, stateCookie)).location).toBe('/login?sso_error=unverified_domain');
    await expectNothingCreated(ana.email!, connection.id, org.id);
  });

  it('an expired sign-in request', async () => {
    const { org, domain, connection } = await ssoOrganization();
    const ana = person(domain);
    const { callbackUrl, stateCookie } = await toProvider(ana.email!, ana);
    const state = new URL(callbackUrl).searchParams.get('state')!;
    await t.db
      .update(ssoSignInRequests)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(ssoSignInRequests.stateHash, hashToken(state)));
    expect((await callback(callbackUrl, stateCookie)).location).toBe('/login?sso_error=expired');
    await expectNothingCreated(ana.email!, connection.id, org.id);
  });

  it('the provider refusing the person', async () => {
    const { org, domain, connection } = await ssoOrganization();
    const email = `nobody.${uid()}@${domain}`;
    const { callbackUrl, stateCookie } = await toProvider(email, undefined);
    expect((await callback(callbackUrl, stateCookie)).location).toBe('/login?sso_error=provider_error');
    await expectNothingCreated(email, connection.id, org.id);
  });

  it('an address without single sign-on is sent back to /login', async () => {
    const start = await t.app.inject({ method: 'GET', url: ssoStartUrl(`x@${freshDomain()}`) });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe('/login?sso_error=not_available');
  });
});

describe('the sign-in page lookup', () => {
  it('says whether an address signs in through a provider, and whether it must', async () => {
    const { domain } = await ssoOrganization();
    const yes = await new Client(t).post('/api/sso/lookup', { email: `Someone@${domain.toUpperCase()}` });
    expect(yes.statusCode).toBe(200);
    expect(yes.json()).toEqual({
      sso: true,
      required: false,
      startUrl: ssoStartUrl(`someone@${domain}`),
    });
    const no = await new Client(t).post('/api/sso/lookup', { email: `someone@${freshDomain()}` });
    expect(no.json()).toEqual({ sso: false, required: false, startUrl: null });
    const bad = await new Client(t).post('/api/sso/lookup', { email: 'not an address' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('Require single sign-on', () => {
  it("refuses passwords to the domain's addresses, except the break-glass admin's", async () => {
    const { admin, org, domain } = await ssoOrganization();
    const staff = { email: `staff.${uid()}@${domain}`, username: `staff_${uid()}`, password: 'correct-horse-9' };
    const keeper = { email: `keeper.${uid()}@${domain}`, username: `keeper_${uid()}`, password: 'correct-horse-9' };
    const staffUser = await new Client(t).register(staff);
    const keeperUser = await new Client(t).register(keeper);
    await t.db.insert(organizationMembers).values([
      { organizationId: org.id, userId: staffUser.user.id, role: 'member' },
      { organizationId: org.id, userId: keeperUser.user.id, role: 'admin' },
    ]);
    const required = await admin.put('/api/sso/connection', {
      protocol: 'oidc',
      enabled: true,
      oidcIssuer: idp.issuer,
      oidcClientId: CLIENT.client_id,
      requireSso: true,
      breakGlassUserId: keeperUser.user.id,
    });
    expect(required.statusCode, required.body).toBe(200);
    expect(required.json<SsoConnection>().oidcClientSecretSet).toBe(true);

    const refused = await new Client(t).post('/api/login', { username: staff.email, password: staff.password });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'sso_required', message: SSO_MESSAGES.passwordRefused });
    expect(refused.cookies.find((c) => c.name === 'pigeonhole.sid')).toBeUndefined();
    // By username too: the address decides, whatever was typed.
    expect(
      (await new Client(t).post('/api/login', { username: staff.username, password: staff.password })).statusCode,
    ).toBe(403);
    // A wrong password still says only that.
    expect(
      (await new Client(t).post('/api/login', { username: staff.email, password: 'wrong-horse-9' })).statusCode,
    ).toBe(401);

    const breakGlass = await new Client(t).post('/api/login', { username: keeper.email, password: keeper.password });
    expect(breakGlass.statusCode, breakGlass.body).toBe(200);

    // A new password account for the domain is refused as well: it comes through the provider.
    const registered = await new Client(t).post('/api/register', {
      email: `new.${uid()}@${domain}`,
      username: `new_${uid()}`,
      password: 'correct-horse-9',
    });
    expect(registered.statusCode).toBe(403);

    const lookup = await new Client(t).post('/api/sso/lookup', { email: staff.email });
    expect(lookup.json()).toMatchObject({ sso: true, required: true });
  });
});

describe('the settings', () => {
  it('keeps the secret encrypted and never answers it; audits the change without it', async () => {
    const { admin, org } = await ssoOrganization();
    const res = await admin.get('/api/sso/connection');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(CLIENT.client_secret);
    expect(res.json()).toMatchObject({
      protocol: 'oidc',
      enabled: true,
      oidcIssuer: idp.issuer,
      oidcClientId: CLIENT.client_id,
      oidcClientSecretSet: true,
      redirectUri: CALLBACK,
    });
    const [row] = await t.db.select().from(ssoConnections).where(eq(ssoConnections.organizationId, org.id));
    expect(row!.oidcClientSecret).toMatch(/^enc:v1:/);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, org.id), eq(auditLog.action, 'sso.connection_saved')));
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries[0])).not.toContain(CLIENT.client_secret);
    expect(entries[0]!.after).toMatchObject({ oidcClientSecret: '(changed)', enabled: true });
  });

  it('refuses bad input with the field and its message, writing nothing', async () => {
    const { client: admin, org } = await signUpWithOrganization(t);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ protocol: 'oidc', oidcClientId: 'x', oidcClientSecret: 'y' }, 'oidcIssuer', SSO_MESSAGES.issuerRequired],
      [
        { protocol: 'oidc', oidcIssuer: 'ftp://idp.example.com', oidcClientId: 'x', oidcClientSecret: 'y' },
        'oidcIssuer',
        SSO_MESSAGES.issuerInvalid,
      ],
      [
        { protocol: 'oidc', oidcIssuer: idp.issuer, oidcClientSecret: 'y' },
        'oidcClientId',
        SSO_MESSAGES.clientIdRequired,
      ],
      [
        { protocol: 'oidc', oidcIssuer: idp.issuer, oidcClientId: 'x' },
        'oidcClientSecret',
        SSO_MESSAGES.clientSecretRequired,
      ],
      [
        { protocol: 'oidc', oidcIssuer: idp.issuer, oidcClientId: 'x', oidcClientSecret: 'y', adminClaim: 'groups' },
        'adminValue',
        SSO_MESSAGES.adminMappingPair,
      ],
      [
        { protocol: 'oidc', oidcIssuer: idp.issuer, oidcClientId: 'x', oidcClientSecret: 'y', enabled: true },
        'enabled',
        SSO_MESSAGES.enableNeedsDomain,
      ],
      [
        { protocol: 'oidc', oidcIssuer: idp.issuer, oidcClientId: 'x', oidcClientSecret: 'y', requireSso: true },
        'requireSso',
        SSO_MESSAGES.requireSsoNeedsEnabled,
      ],
      [{ protocol: 'smtp' }, 'protocol', 'Protocol must be oidc or saml'],
    ];
    for (const [body, path, message] of cases) {
      const res = await admin.put('/api/sso/connection', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        res.json<{ errors?: Array<{ path: string; message: string }> }>().errors,
        JSON.stringify(body),
      ).toContainEqual({
        path,
        message,
      });
    }
    expect(await t.db.select().from(ssoConnections).where(eq(ssoConnections.organizationId, org.id))).toHaveLength(0);
  });

  it("is admins' only, and each organization sees only its own", async () => {
    const a = await ssoOrganization();
    const { client: bAdmin } = await signUpWithOrganization(t);
    expect((await bAdmin.get('/api/sso/connection')).statusCode).toBe(404);
    expect((await bAdmin.delete('/api/sso/connection')).statusCode).toBe(404);
    expect((await a.admin.get('/api/sso/connection')).statusCode).toBe(200);
    // Organization A named by B's admin: not a member.
    const asB = await bAdmin.get('/api/sso/connection', { 'x-organization-id': a.org.id });
    expect([403, 404]).toContain(asB.statusCode);

    const member = new Client(t);
    const { user } = await member.register();
    await t.db.insert(organizationMembers).values({ organizationId: a.org.id, userId: user.id, role: 'member' });
    member.organizationId = a.org.id;
    expect((await member.get('/api/sso/connection')).statusCode).toBe(403);
    expect((await member.put('/api/sso/connection', { protocol: 'oidc' })).statusCode).toBe(403);
    expect((await member.delete('/api/sso/connection')).statusCode).toBe(403);

    expect((await a.admin.delete('/api/sso/connection')).statusCode).toBe(204);
    expect((await a.admin.get('/api/sso/connection')).statusCode).toBe(404);
  });

  it('"Test" reads the discovery document', async () => {
    const { client: admin } = await signUpWithOrganization(t);
    const ok = await admin.post('/api/sso/connection/test', {
      oidcIssuer: `${idp.issuer}/.well-known/openid-configuration`,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, issuer: idp.issuer, authorizationEndpoint: `${idp.issuer}/auth` });
    const bad = await admin.post('/api/sso/connection/test', { oidcIssuer: 'http://127.0.0.1:9/' });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toMatchObject({ ok: false });
  });
});
