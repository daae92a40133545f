import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../config';
import {
  auditLog,
  organizationDomains,
  organizationMembers,
  ssoConnections,
  ssoUsedAssertions,
  users,
} from '../../../db/schema';
import { Client, createTestApp, postRaw, signUpWithOrganization, type TestApp } from '../../../test/harness';
import { createTestIdp, makeKeyPair, type ResponseOptions } from '../../../test/saml-idp';
import { samlStateCookie } from '../browser-binding';
import { parseIdpMetadata } from './idp-metadata';

/**
 * SAML sign-in end to end against a real identity provider (samlify, signing with its own keys):
 * the provider's signed response POSTed to our ACS as its HTML form would (cross-site), the
 * pending request, the replay table, the verified domain, the account, membership and session.
 * Every refusal leaves no user and no membership behind.
 */

// https, as in production: the state cookie is SameSite=None; Secure (browser-binding.ts).
const APP_URL = 'https://pigeonhole.test';
let t: TestApp;
const idp = createTestIdp();

beforeAll(async () => {
  t = await createTestApp({ APP_URL });
});

let seq = 0;
/** An organization with a verified domain and an enabled SAML connection to the test IdP. */
async function organizationWithSaml(options: { allowIdpInitiated?: boolean; adminGroup?: string } = {}) {
  const { client: admin, org } = await signUpWithOrganization(t);
  const domain = `saml${++seq}-${crypto.randomBytes(3).toString('hex')}.example.org`;
  await t.db.insert(organizationDomains).values({
    organizationId: org.id,
    domain,
    verificationToken: crypto.randomBytes(16).toString('hex'),
    status: 'verified',
    verifiedAt: new Date(),
    verifiedBy: 'dns',
  });
  const settings = parseIdpMetadata(idp.metadataXml);
  const [connection] = await t.db
    .insert(ssoConnections)
    .values({
      organizationId: org.id,
      protocol: 'saml',
      enabled: true,
      idpMetadataXml: idp.metadataXml,
      idpEntityId: settings.entityId,
      idpSsoUrl: settings.ssoUrl,
      idpCertificates: settings.certificates,
      allowIdpInitiated: options.allowIdpInitiated ?? false,
      ...(options.adminGroup ? { adminClaim: 'groups', adminValue: options.adminGroup } : {}),
    })
    .returning();
  const spXml = (await t.app.inject({ method: 'GET', url: `/api/sso/saml/${org.id}/metadata` })).body;
  return { admin, org, domain, connection: connection!, spXml };
}

type Org = Awaited<ReturnType<typeof organizationWithSaml>>;

const STATE_COOKIE = 'pigeonhole.saml_state';

/**
 * Starts a sign-in as the login page does (GET /api/sso/start, sso.service's start with our
 * AuthnRequest): the redirect's AuthnRequest ID and RelayState, and the state cookie the starting
 * browser keeps (as `cookie: name=value`, what that browser sends to the ACS).
 */
async function startSignIn(o: Org, email = `someone@${o.domain}`) {
  const res = await t.app.inject({ method: 'GET', url: `/api/sso/start?${new URLSearchParams({ email })}` });
  expect(res.statusCode, res.body).toBe(302);
  const url = res.headers.location as string;
  expect(url.startsWith(idp.ssoUrl), url).toBe(true);
  const state = res.cookies.find((c) => c.name === STATE_COOKIE);
  expect(state?.value).toBeTruthy();
  return {
    requestId: idp.requestIdOf(url),
    relayState: new URL(url).searchParams.get('RelayState')!,
    browser: `${STATE_COOKIE}=${state!.value}`,
    setCookie: state!,
    allCookies: res.cookies,
  };
}

/** The provider's auto-submitted form: a cross-site POST from its own origin, with the browser's cookies. */
function postToAcs(organizationId: string, fields: Record<string, string>, browser?: string) {
  return postRaw(
    t,
    `/api/sso/saml/${organizationId}/acs`,
    'application/x-www-form-urlencoded',
    new URLSearchParams(fields).toString(),
    {
      origin: 'https://idp.example.test',
      'sec-fetch-site': 'cross-site',
      ...(browser ? { cookie: browser } : {}),
    },
  );
}

async function signIn(o: Org, email: string, options: Partial<ResponseOptions> = {}) {
  const { requestId, relayState, browser } = await startSignIn(o, email);
  const SAMLResponse = await idp.respond(o.spXml, { email, inResponseTo: requestId, ...options });
  return postToAcs(o.org.id, { SAMLResponse, RelayState: relayState }, browser);
}

const userOf = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0];
const membersOf = async (organizationId: string) =>
  t.db.select().from(organizationMembers).where(eq(organizationMembers.organizationId, organizationId));

/** Refused: back to the sign-in page with the code and the SAML reason, and nothing created. */
async function expectRefused(
  res: Awaited<ReturnType<typeof postToAcs>>,
  o: Org,
  email: string,
  code: string,
  reason?: string,
) {
  expect(res.statusCode, res.body).toBe(303);
  const location = new URL(res.headers.location as string, APP_URL);
  expect(location.pathname).toBe('/login');
  expect(location.searchParams.get('sso_error')).toBe(code);
  if (reason) expect(location.searchParams.get('reason')).toBe(reason);
  expect(res.cookies.find((c) => c.name === 'pigeonhole.sid')).toBeUndefined();
  expect(await userOf(email)).toBeUndefined();
  expect(await membersOf(o.org.id)).toHaveLength(1); // the admin only
}

describe('our SAML metadata', () => {
  it('is public XML naming our entity id and ACS for the organization; an unknown one answers 404', async () => {
    const { org } = await signUpWithOrganization(t);
    const res = await t.app.inject({ method: 'GET', url: `/api/sso/saml/${org.id}/metadata` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(res.body).toContain(`entityID="${APP_URL}/api/sso/saml/${org.id}/metadata"`);
    expect(res.body).toContain(`Location="${APP_URL}/api/sso/saml/${org.id}/acs"`);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/sso/saml/${crypto.randomUUID()}/metadata` })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/sso/saml/not-an-id/metadata' })).statusCode).toBe(404);
  });
});

describe('signing in through the SAML provider', () => {
  it('creates the user and the membership with the default role and opens a session (a cross-site POST)', async () => {
    const o = await organizationWithSaml();
    const email = `ana@${o.domain}`;
    const res = await signIn(o, email, { attributes: { givenname: 'Ana', surname: 'Lima' } });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookie = res.cookies.find((c) => c.name === 'pigeonhole.sid');
    expect(cookie?.value).toBeTruthy();
    const user = await userOf(email);
    expect(user).toMatchObject({ firstName: 'Ana', lastName: 'Lima' });
    expect(user!.emailVerifiedAt).not.toBeNull();
    const members = await membersOf(o.org.id);
    expect(members.find((m) => m.userId === user!.id)?.role).toBe('member');
    const browser = new Client(t);
    browser.cookie = `pigeonhole.sid=${cookie!.value}`;
    const me = await browser.get('/api/auth/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email });
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, o.org.id), eq(auditLog.action, 'sso.signed_in')));
    expect(audit).toHaveLength(1);

    // A second sign-in finds the same user by the provider's subject.
    const again = await signIn(o, email);
    expect(again.headers.location).toBe('/');
    expect(await membersOf(o.org.id)).toHaveLength(2);
  });

  it("makes an admin of a person in the admin mapping's group", async () => {
    const o = await organizationWithSaml({ adminGroup: 'mailroom-admins' });
    const email = `bo@${o.domain}`;
    const res = await signIn(o, email, { attributes: { groups: 'mailroom-admins' } });
    expect(res.headers.location).toBe('/');
    const user = await userOf(email);
    expect((await membersOf(o.org.id)).find((m) => m.userId === user!.id)?.role).toBe('admin');
  });

  it('refuses an unsigned response', async () => {
    const o = await organizationWithSaml();
    const email = `cy@${o.domain}`;
    await expectRefused(await signIn(o, email, { sign: false }), o, email, 'refused', 'saml_signature_invalid');
  });

  it('refuses a response signed by another key', async () => {
    const o = await organizationWithSaml();
    const email = `di@${o.domain}`;
    const impostor = createTestIdp({ entityId: idp.entityId, keys: makeKeyPair('Impostor') });
    const { requestId, relayState, browser } = await startSignIn(o);
    const SAMLResponse = await impostor.respond(o.spXml, { email, inResponseTo: requestId });
    await expectRefused(
      await postToAcs(o.org.id, { SAMLResponse, RelayState: relayState }, browser),
      o,
      email,
      'refused',
      'saml_signature_invalid',
    );
  });

  it('refuses signature wrapping: an unsigned assertion beside the signed one, or around it', async () => {
    const o = await organizationWithSaml();
    const email = `ed@${o.domain}`;
    const evilEmail = `mallory@${o.domain}`;
    for (const place of ['beside', 'around'] as const) {
      const { requestId, relayState, browser } = await startSignIn(o);
      const signed = Buffer.from(await idp.respond(o.spXml, { email, inResponseTo: requestId }), 'base64').toString();
      const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signed)![0];
      const evil = assertion
        .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
        .replace(/ ID="[^"]+"/, ' ID="_evil"')
        .replace(email, evilEmail);
      const wrapped =
        place === 'beside'
          ? signed.replace(assertion, evil + assertion)
          : signed.replace(assertion, evil.replace('</saml:Subject>', `${assertion}</saml:Subject>`));
      const res = await postToAcs(
        o.org.id,
        { SAMLResponse: Buffer.from(wrapped).toString('base64'), RelayState: relayState },
        browser,
      );
      await expectRefused(res, o, evilEmail, 'refused', 'saml_signature_invalid');
      expect(await userOf(email)).toBeUndefined();
    }
  });

  it('refuses a replayed assertion: the same response twice, SP-started and provider-started', async () => {
    const o = await organizationWithSaml({ allowIdpInitiated: true });
    const email = `fa@${o.domain}`;
    const { requestId, relayState, browser } = await startSignIn(o);
    const SAMLResponse = await idp.respond(o.spXml, { email, inResponseTo: requestId });
    expect((await postToAcs(o.org.id, { SAMLResponse, RelayState: relayState }, browser)).headers.location).toBe('/');
    const replay = await postToAcs(o.org.id, { SAMLResponse, RelayState: relayState }, browser);
    expect(new URL(replay.headers.location as string, APP_URL).searchParams.get('sso_error')).toBe('expired');
    expect(replay.cookies.find((c) => c.name === 'pigeonhole.sid')).toBeUndefined();

    const unsolicited = await idp.respond(o.spXml, { email });
    expect((await postToAcs(o.org.id, { SAMLResponse: unsolicited })).headers.location).toBe('/');
    const again = await postToAcs(o.org.id, { SAMLResponse: unsolicited });
    const location = new URL(again.headers.location as string, APP_URL);
    expect(location.searchParams.get('sso_error')).toBe('expired');
    expect(location.searchParams.get('reason')).toBe('saml_replayed');
    expect(again.cookies.find((c) => c.name === 'pigeonhole.sid')).toBeUndefined();
  });

  it('refuses another audience, another issuer, an expired assertion', async () => {
    const o = await organizationWithSaml();
    const email = `gi@${o.domain}`;
    await expectRefused(
      await signIn(o, email, { audience: 'https://elsewhere.example/sp' }),
      o,
      email,
      'refused',
      'saml_audience_mismatch',
    );
    await expectRefused(
      await signIn(o, email, { issuer: 'https://other-idp.example/saml' }),
      o,
      email,
      'refused',
      'saml_issuer_mismatch',
    );
    await expectRefused(
      await signIn(o, email, { issuedMinutesAgo: 10, validForMinutes: -5 }),
      o,
      email,
      'expired',
      'saml_expired',
    );
  });

  it('refuses a response that answers no pending request of ours, or the request of another organization', async () => {
    const o = await organizationWithSaml();
    const other = await organizationWithSaml();
    const email = `ha@${o.domain}`;
    // An InResponseTo we never sent.
    const { relayState, browser } = await startSignIn(o);
    const made = await idp.respond(o.spXml, { email, inResponseTo: '_never-sent' });
    await expectRefused(
      await postToAcs(o.org.id, { SAMLResponse: made, RelayState: relayState }, browser),
      o,
      email,
      'expired',
      'saml_request_unknown',
    );
    // Another organization's pending request.
    const theirs = await startSignIn(other);
    const crossed = await idp.respond(o.spXml, { email, inResponseTo: theirs.requestId });
    await expectRefused(
      await postToAcs(o.org.id, { SAMLResponse: crossed, RelayState: theirs.relayState }, theirs.browser),
      o,
      email,
      'expired',
    );
  });

  it('refuses an unsolicited response unless the admin allowed provider-started sign-in', async () => {
    const closed = await organizationWithSaml();
    const email = `io@${closed.domain}`;
    const SAMLResponse = await idp.respond(closed.spXml, { email });
    await expectRefused(await postToAcs(closed.org.id, { SAMLResponse }), closed, email, 'refused', 'saml_unsolicited');

    const open = await organizationWithSaml({ allowIdpInitiated: true });
    const openEmail = `jo@${open.domain}`;
    const res = await postToAcs(open.org.id, { SAMLResponse: await idp.respond(open.spXml, { email: openEmail }) });
    expect(res.headers.location).toBe('/');
    expect(await userOf(openEmail)).toBeDefined();
  });

  it("refuses an address outside the organization's verified domains", async () => {
    const o = await organizationWithSaml();
    const email = `ka@unverified-${crypto.randomBytes(3).toString('hex')}.example.org`;
    // Started for an address of the verified domain; the provider answers with another one.
    const { requestId, relayState, browser } = await startSignIn(o);
    const SAMLResponse = await idp.respond(o.spXml, { email, inResponseTo: requestId });
    await expectRefused(
      await postToAcs(o.org.id, { SAMLResponse, RelayState: relayState }, browser),
      o,
      email,
      'unverified_domain',
    );
  });

  it('answers the sign-in page for an organization without SAML, and keeps refusing cross-site writes elsewhere', async () => {
    const { org } = await signUpWithOrganization(t);
    const res = await postToAcs(org.id, { SAMLResponse: 'PHg+' });
    expect(new URL(res.headers.location as string, APP_URL).searchParams.get('sso_error')).toBe('not_available');
    // Only the ACS is exempt from the CSRF guard; form bodies stay refused elsewhere.
    const login = await postRaw(t, '/api/login', 'application/json', '{}', { 'sec-fetch-site': 'cross-site' });
    expect(login.statusCode).toBe(403);
    const form = await postRaw(t, '/api/login', 'application/x-www-form-urlencoded', 'a=b');
    expect(form.statusCode).toBe(415);
  });
});

describe('a sign-in is bound to the browser that started it (login CSRF)', () => {
  it('keeps the state in an HttpOnly SameSite=None; Secure cookie for the ACS only, cleared by the ACS', async () => {
    const o = await organizationWithSaml();
    const email = `lu@${o.domain}`;
    const acsPath = `/api/sso/saml/${o.org.id}/acs`;
    const { requestId, relayState, browser, setCookie, allCookies } = await startSignIn(o, email);
    expect(setCookie).toMatchObject({ path: acsPath, httpOnly: true, secure: true, sameSite: 'None', maxAge: 600 });
    expect(setCookie.value).toBe(relayState);
    // Not the OIDC state cookie: a Lax cookie does not ride on the provider's cross-site POST.
    expect(allCookies.find((c) => c.name === 'pigeonhole.sso_state')).toBeUndefined();

    const SAMLResponse = await idp.respond(o.spXml, { email, inResponseTo: requestId });
    const res = await postToAcs(o.org.id, { SAMLResponse, RelayState: relayState }, browser);
    expect(res.headers.location).toBe('/');
    const cleared = res.cookies.find((c) => c.name === STATE_COOKIE);
    expect(cleared).toMatchObject({ value: '', path: acsPath, secure: true, sameSite: 'None' });
    expect(cleared!.expires!.getTime()).toBeLessThan(Date.now());
  });

  it("refuses a response posted into a browser without the state cookie, or with another sign-in's, creating nothing", async () => {
    const o = await organizationWithSaml();
    const attackerEmail = `mallory@${o.domain}`;
    const usedAssertions = async () =>
      t.db.select().from(ssoUsedAssertions).where(eq(ssoUsedAssertions.connectionId, o.connection.id));

    // The attacker starts a sign-in in their own browser and gets the provider's answer for
    // their own account, then has a victim's browser post it (an auto-submitting form).
    const attacker = await startSignIn(o, attackerEmail);
    const forged = await idp.respond(o.spXml, { email: attackerEmail, inResponseTo: attacker.requestId });
    const noCookie = await postToAcs(o.org.id, { SAMLResponse: forged, RelayState: attacker.relayState });
    await expectRefused(noCookie, o, attackerEmail, 'expired', 'saml_other_browser');
    expect(noCookie.cookies.find((c) => c.name === STATE_COOKIE)?.value).toBe('');

    // A victim in the middle of a sign-in of their own: their cookie holds their own state.
    const again = await startSignIn(o, attackerEmail);
    const victim = await startSignIn(o, `vera@${o.domain}`);
    const second = await idp.respond(o.spXml, { email: attackerEmail, inResponseTo: again.requestId });
    await expectRefused(
      await postToAcs(o.org.id, { SAMLResponse: second, RelayState: again.relayState }, victim.browser),
      o,
      attackerEmail,
      'expired',
      'saml_other_browser',
    );
    // A cookie that merely resembles the state does not pass either.
    const third = await startSignIn(o, attackerEmail);
    const thirdResponse = await idp.respond(o.spXml, { email: attackerEmail, inResponseTo: third.requestId });
    await expectRefused(
      await postToAcs(
        o.org.id,
        { SAMLResponse: thirdResponse, RelayState: third.relayState },
        `${STATE_COOKIE}=${third.relayState.slice(0, -1)}x`,
      ),
      o,
      attackerEmail,
      'expired',
      'saml_other_browser',
    );
    expect(await usedAssertions()).toHaveLength(0);

    // The victim's own sign-in is untouched and still goes through in their browser.
    const theirs = await idp.respond(o.spXml, { email: `vera@${o.domain}`, inResponseTo: victim.requestId });
    const res = await postToAcs(o.org.id, { SAMLResponse: theirs, RelayState: victim.relayState }, victim.browser);
    expect(res.headers.location).toBe('/');
    expect(await userOf(`vera@${o.domain}`)).toBeDefined();
    expect(await userOf(attackerEmail)).toBeUndefined();
  });

  it('is Secure on https, in production and on loopback; Lax only on plain http elsewhere outside production', () => {
    const path = '/api/sso/saml/x/acs';
    const dev = { env: 'development' } as Config;
    expect(samlStateCookie(dev, 'https://mail.example.com', path)).toMatchObject({ secure: true, sameSite: 'none' });
    expect(samlStateCookie(dev, 'http://localhost:5000', path)).toMatchObject({ secure: true, sameSite: 'none' });
    expect(samlStateCookie(dev, 'http://127.0.0.1:5000', path)).toMatchObject({ secure: true, sameSite: 'none' });
    expect(samlStateCookie({ env: 'production' } as Config, 'http://mail.lan', path)).toMatchObject({
      secure: true,
      sameSite: 'none',
    });
    expect(samlStateCookie(dev, 'http://mail.lan:5000', path)).toMatchObject({ secure: false, sameSite: 'lax' });
  });
});
