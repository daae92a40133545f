import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, like } from 'drizzle-orm';
import * as prettier from 'prettier';
import * as OTPAuth from 'otpauth';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  apiKeys,
  billingCheckouts,
  integrations,
  mailItems,
  mailroomLocations,
  mailrooms,
  organizationMembers,
  organizations,
  rateLimits,
  recipients,
  userInvitations,
  users,
  expectedPackages,
  organizationDomains,
  ssoConnections,
  rosterRuns,
  rosterSources,
} from '../db/schema';
import { createSecretBox } from '../lib/secrets';
import { hashToken, newToken } from '../lib/tokens';
import { grantSuperAdmin } from '../modules/super-admin/shell';
import { billingRepository } from '../modules/billing/billing.repository';
import { emailVerificationRepository } from '../modules/auth/email-verification.repository';
import { passwordResetRepository } from '../modules/auth/password-reset.repository';
import { usersRepository } from '../modules/auth/users.repository';
import { unsubscribeToken } from '../modules/notifications/messages';
import { NOT_A_MEMBER } from '../plugins/organization';
import {
  Client,
  createSecondInstance,
  createTestApp,
  joinAs,
  newAccount,
  TEST_SECRETS_KEY,
  type TestApp,
} from './harness';
import { signStripePayload, startStripeServer, stripeEvent } from './stripe-server';
import { uniqueTrackingNumber } from './tracking-numbers';
import {
  CLIENT_FILES_DIR,
  refusals,
  renderRolesMarkdown,
  ROLE_TABLE,
  routeKey,
  type Method,
  isLive,
  isPlanned,
  liveKey,
  type RoleTableRow,
  type Access,
  type LiveRouteKey,
} from './role-table';
import { signaturePng } from './hand-over';

let t: TestApp;
/**
 * A second instance on the same database without provider keys, so the demo provider is on
 * (DEMO_PAYMENTS' default): the demo checkout and PayPal rows are walked through it, since `t`
 * has Stripe's keys and therefore offers neither (decision 028).
 */
let demo: TestApp;

/** Who sends a request: a session cookie (none when signed out) and the organization header. */
type Caller = { label: string; cookie?: string; organizationId?: string; account?: Account };
type Account = { username: string; email: string; password: string; userId: string };

/** An organization with an admin, a member and one row of each kind, all made through the API. */
type Side = {
  name: string;
  organizationId: string;
  admin: Client;
  adminAccount: Account;
  memberAccount: Account;
  memberClient: Client;
  recipientId: string;
  mailroomId: string;
  locationId: string;
  mailItemId: string;
  photoId: string;
};

/** The callers of the walk. `crossAdmin` is A's admin with A selected, naming B's rows. */
type Who = 'signedOut' | 'outsider' | 'member' | 'admin' | 'crossAdmin' | 'superAdmin';

/** One request of the walk: `ok` is the exact status an admitted caller gets. */
type Call = {
  url: string;
  body?: unknown;
  /** Extra request headers (a webhook's signature). */
  headers?: Record<string, string>;
  ok: number;
  /** Send as this caller instead (e.g. a second session of the same user, for logout). */
  as?: Caller;
  /** Send to this instance instead of `t` (the demo provider's calls). */
  instance?: TestApp;
  /** After a refused call: the target is still there, unchanged. */
  intact?: () => Promise<void>;
  /** After the call: undo what it did that would change who the next calls are sent as. */
  cleanup?: () => Promise<void>;
};
type Fixture = (side: Side, who: Who, caller: Caller) => Promise<Call>;

async function send(
  caller: Caller,
  method: Method,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  instance: TestApp = t,
) {
  return instance.app.inject({
    method,
    url,
    headers: {
      ...(caller.cookie ? { cookie: caller.cookie } : {}),
      ...(caller.organizationId ? { 'x-organization-id': caller.organizationId } : {}),
      ...headers,
    },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
}

const callerOf = (label: string, client: Client, account?: Account): Caller => ({
  label,
  cookie: client.cookie,
  organizationId: client.organizationId,
  account,
});

/** A second session of the same user: for calls that end the session they are sent with. */
async function newSession(caller: Caller): Promise<Caller> {
  if (!caller.account) return caller;
  const c = new Client(t);
  const res = await c.post('/api/login', { username: caller.account.username, password: caller.account.password });
  expect(res.statusCode).toBe(200);
  return { ...caller, label: `${caller.label} (second session)`, cookie: c.cookie };
}

async function pngDataUrl() {
  const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

const uid = () => crypto.randomBytes(4).toString('hex');

async function created<T = { id: string }>(res: { statusCode: number; body: string; json: <J>() => J }, status = 201) {
  expect(res.statusCode, res.body).toBe(status);
  return res.json<T>();
}

async function makeSide(name: string): Promise<Side> {
  const admin = new Client(t);
  const reg = await admin.register();
  await admin.createOrganization(name);
  const organizationId = admin.organizationId!;
  const member = new Client(t);
  const memberReg = await member.register();
  await t.db.insert(organizationMembers).values({ organizationId, userId: memberReg.user.id, role: 'member' });
  member.organizationId = organizationId;
  // Unlimited seats: the walk adds throwaway members and lets an outsider join by invitation.
  await t.db.update(organizations).set({ maxUsers: -1 }).where(eq(organizations.id, organizationId));

  const recipient = await created(await admin.post('/api/recipients', { firstName: 'Ada', lastName: name }));
  const mailroom = await created(await admin.post('/api/mailrooms', { name: `${name} lobby` }));
  const location = await created(
    await admin.post('/api/mailroom-locations', { name: 'Shelf 1', type: 'shelf', mailroomId: mailroom.id }),
  );
  const item = await created<{ id: string; photoUrl: string | null }>(
    await admin.post('/api/mail-items', {
      type: 'package',
      recipientId: recipient.id,
      locationId: location.id,
      photoData: await pngDataUrl(),
    }),
  );
  const photoId = /\/api\/photos\/([0-9a-f-]{36})$/.exec(item.photoUrl ?? '')?.[1];
  if (!photoId) throw new Error(`no photo on the mail item: ${item.photoUrl}`);
  return {
    name,
    organizationId,
    admin,
    adminAccount: { ...reg, userId: reg.user.id },
    memberAccount: { ...memberReg, userId: memberReg.user.id },
    memberClient: member,
    recipientId: recipient.id,
    mailroomId: mailroom.id,
    locationId: location.id,
    mailItemId: item.id,
    photoId,
  };
}

/** Throwaway rows for destructive calls, made by the side's admin. */
const throwaway = {
  recipient: async (s: Side) =>
    (await created(await s.admin.post('/api/recipients', { firstName: 'Temp', lastName: uid() }))).id,
  mailroom: async (s: Side) => (await created(await s.admin.post('/api/mailrooms', { name: `Temp ${uid()}` }))).id,
  location: async (s: Side) =>
    (
      await created(
        await s.admin.post('/api/mailroom-locations', { name: `Bin ${uid()}`, type: 'bin', mailroomId: s.mailroomId }),
      )
    ).id,
  mailItem: async (s: Side) =>
    (await created(await s.admin.post('/api/mail-items', { type: 'letter', recipientId: s.recipientId }))).id,
  member: async (s: Side) => (await joinAs(t, s.organizationId, 'member')).userId,
};

/**
 * The walk's earlier domains removed, so its many claims stay under the per-organization cap
 * (decision 058); each row's own domain is made after this, and checked before the next row runs.
 */
const clearWalkDomains = (organizationId: string) =>
  t.db
    .delete(organizationDomains)
    .where(and(eq(organizationDomains.organizationId, organizationId), like(organizationDomains.domain, 'walk-%')));

/** A pending email domain of the side's organization, claimed by its admin. */
const throwawayDomain = async (s: Side) => {
  await clearWalkDomains(s.organizationId);
  return (await created(await s.admin.post('/api/domains', { domain: `walk-${uid()}.example` }))).id;
};

/** The side's organization has a (disabled) single sign-on connection. */
async function ensureSsoConnection(organizationId: string) {
  await t.db
    .insert(ssoConnections)
    .values({ organizationId, protocol: 'oidc', oidcIssuer: 'https://idp.example.com', oidcClientId: 'walk' })
    .onConflictDoNothing();
}

/** Asserts the organization's connection survived a refused call. */
const ssoConnectionKept = (organizationId: string) => async () => {
  const rows = await t.db
    .select({ id: ssoConnections.id })
    .from(ssoConnections)
    .where(eq(ssoConnections.organizationId, organizationId));
  expect(rows, `the SSO connection of ${organizationId} must survive a refused call`).toHaveLength(1);
};

/** Each side's SCIM bearer token (decision 060), made once by its admin. */
const scimTokenBySide = new Map<string, Promise<string>>();
const scimTokenOf = (s: Side) => {
  if (!scimTokenBySide.has(s.name)) {
    scimTokenBySide.set(
      s.name,
      s.admin.post('/api/scim/tokens', { name: 'Walk' }).then((res) => res.json<{ token: string }>().token),
    );
  }
  return scimTokenBySide.get(s.name)!;
};
const scimAs = async (s: Side, method: Method, url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${await scimTokenOf(s)}` },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
const scimUserBody = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'Walk', familyName: 'Through' },
  emails: [{ type: 'work', value: userName }],
});
/** A SCIM user of the side's organization (a recipient kept by SCIM) and its userName. */
const throwawayScimUser = async (s: Side) => {
  const userName = `walk-${uid()}@example.com`;
  const res = await scimAs(s, 'POST', '/scim/v2/Users', scimUserBody(userName));
  return { id: (await created(res)).id, userName };
};
const throwawayScimGroup = async (s: Side) =>
  (
    await created(
      await scimAs(s, 'POST', '/scim/v2/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: `Walk ${uid()}`,
      }),
    )
  ).id;
/** Asserts a SCIM user is still there and active after a refused call. */
const scimUserActive = (id: string) => async () => {
  const rows = await t.db.select({ isActive: recipients.isActive }).from(recipients).where(eq(recipients.id, id));
  expect(rows, `SCIM user ${id} must survive a refused call, active`).toEqual([{ isActive: true }]);
};
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** Asserts a domain is still there and still pending after a refused call. */
const domainPending = (id: string) => async () => {
  const rows = await t.db
    .select({ status: organizationDomains.status })
    .from(organizationDomains)
    .where(eq(organizationDomains.id, id));
  expect(rows, `domain ${id} must survive a refused call, pending`).toEqual([{ status: 'pending' }]);
};

/**
 * The side's roster source, made afresh (one per organization): its URL answers nothing, so a
 * run of it is recorded as failed, which is all the walk needs.
 */
async function throwawayRosterSource(s: Side) {
  await t.db.delete(rosterSources).where(eq(rosterSources.organizationId, s.organizationId));
  return (
    await created(
      await s.admin.post('/api/roster/sources', {
        kind: 'https',
        url: 'http://127.0.0.1:9/roster.csv',
        mapping: { externalId: 'id', firstName: 'first', lastName: 'last' },
      }),
    )
  ).id;
}
/** A run of the side's roster waiting for approval, with nothing to apply. */
async function waitingRosterRun(s: Side) {
  const sourceId = await throwawayRosterSource(s);
  const [run] = await t.db
    .insert(rosterRuns)
    .values({
      organizationId: s.organizationId,
      sourceId,
      status: 'awaiting_approval',
      trigger: 'manual',
      preview: {
        reason: 'first_run',
        added: [],
        changed: [],
        moved: [],
        left: [],
        changes: { insert: [], adopt: [], update: [], leave: [] },
      },
    })
    .returning();
  return run!.id;
}
const rosterRunWaiting = (id: string) => async () => {
  const rows = await t.db.select({ status: rosterRuns.status }).from(rosterRuns).where(eq(rosterRuns.id, id));
  expect(rows, `roster run ${id} must still wait after a refused call`).toEqual([{ status: 'awaiting_approval' }]);
};
const rosterSourceExists = (id: string) => async () => {
  const rows = await t.db.select({ id: rosterSources.id }).from(rosterSources).where(eq(rosterSources.id, id));
  expect(rows, `roster source ${id} must survive a refused call`).toHaveLength(1);
};
const ROSTER_SOURCE_BODY = {
  kind: 'https',
  url: 'http://127.0.0.1:9/roster.csv',
  mapping: { externalId: 'id', firstName: 'first', lastName: 'last' },
};

/** Asserts a row still exists after a refused delete. */
const rowExists =
  (table: typeof recipients | typeof mailrooms | typeof mailroomLocations | typeof mailItems, id: string) =>
  async () => {
    const rows = await t.db.select({ id: table.id }).from(table).where(eq(table.id, id));
    expect(rows, `row ${id} must survive a refused call`).toHaveLength(1);
  };

const memberExists =
  (organizationId: string, userId: string, role: 'admin' | 'member' = 'member') =>
  async () => {
    const rows = await t.db
      .select({ role: organizationMembers.role })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
    expect(rows, `member ${userId} of ${organizationId} must survive a refused call`).toEqual([{ role }]);
  };

const memberAbsent = async (organizationId: string, userId: string) => {
  const rows = await t.db
    .select({ role: organizationMembers.role })
    .from(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
  expect(rows, `${userId} must not be a member of ${organizationId}`).toEqual([]);
};

const leave = async (organizationId: string, userId: string) => {
  await t.db
    .delete(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
};

/**
 * An open invitation of the side's organization with a token the test knows (the API emails the
 * token, so the row is written directly, as POST /api/user-invitations writes it).
 */
async function invitation(s: Side, email: string) {
  const token = newToken();
  const tokenHash = hashToken(token);
  const [row] = await t.db
    .insert(userInvitations)
    .values({
      organizationId: s.organizationId,
      email,
      role: 'member',
      invitedBy: s.adminAccount.userId,
      token: tokenHash,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning({ id: userInvitations.id });
  return { id: row!.id, token, tokenHash };
}

/** The invitation is still open with the same token (not revoked, not re-sent). */
const invitationIntact = (id: string, tokenHash: string) => async () => {
  const rows = await t.db
    .select({ token: userInvitations.token })
    .from(userInvitations)
    .where(eq(userInvitations.id, id));
  expect(rows, `invitation ${id} must survive a refused call`).toEqual([{ token: tokenHash }]);
};

/** What the side's admin reads at `url` now must be what they read after a refused call. */
async function unchanged(s: Side, url: string) {
  const read = async () => {
    const res = await s.admin.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<unknown>();
  };
  const before = await read();
  return async () => expect(await read(), `${url} must not change on a refused call`).toEqual(before);
}

/** A recipient's pickup code as the database holds it. */
async function pickupCodeOf(recipientId: string) {
  const [row] = await t.db
    .select({ code: recipients.pickupCode })
    .from(recipients)
    .where(eq(recipients.id, recipientId));
  return row!.code;
}

/** Reads rows now; the returned check fails if a refused call added or changed any. */
async function unchangedRows(read: () => Promise<unknown[]>) {
  const before = await read();
  return async () => expect(await read(), 'rows must not change on a refused call').toEqual(before);
}

const checkoutsOf = (s: Side) => () =>
  t.db.select().from(billingCheckouts).where(eq(billingCheckouts.organizationId, s.organizationId));

/** The side's admin session, sent to the demo instance. */
function onDemo(c: Client): Client {
  const other = new Client(demo);
  other.cookie = c.cookie;
  other.organizationId = c.organizationId;
  return other;
}

/**
 * The walk makes more billing writes per organization than the per-minute limit allows (which
 * billing tests cover): each billing fixture starts the organizations' counters afresh.
 */
async function freshBillingBudget() {
  await t.db.delete(rateLimits).where(like(rateLimits.key, 'billing:org:%'));
}

/** An open checkout of the demo provider for the side (as the card checkout writes it with the demo provider on). */
async function demoCheckoutOf(s: Side) {
  await freshBillingBudget();
  const row = await billingRepository.insertCheckout(t.db, {
    organizationId: s.organizationId,
    provider: 'demo',
    planType: 'enterprise',
    quantity: 1000,
    amount: 4500 * 1000,
  });
  return row.id;
}

let spare: Account;
const secretBox = createSecretBox(Buffer.from(TEST_SECRETS_KEY, 'base64'));

/** A fixed TOTP secret for the two-factor rows, stored as the app stores it (encrypted). */
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const totpCode = () => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(TOTP_SECRET) }).generate();
const markVerified = (userId: string) =>
  t.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, userId));

async function setTwoFactor(userId: string, on: boolean) {
  await t.db
    .update(users)
    .set(
      on
        ? { twoFactorSecret: secretBox.encrypt(TOTP_SECRET), twoFactorEnabledAt: new Date(), twoFactorLastStep: null }
        : { twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null },
    )
    .where(eq(users.id, userId));
}
/** Two-factor on for the caller's own account for one call, and off again after it. */
async function withOwnTwoFactor(caller: Caller, call: Omit<Call, 'cleanup'>): Promise<Call> {
  const userId = caller.account?.userId;
  if (!userId) return call;
  await setTwoFactor(userId, true);
  return { ...call, cleanup: () => setTwoFactor(userId, false) };
}

/** Integrations of each side made by its admin: an API one (with a key) and a webhook, made once. */
const sideIntegrations = new Map<string, { api: string; webhook: string; apiKey: string }>();
async function integrationsOf(s: Side) {
  let found = sideIntegrations.get(s.organizationId);
  if (!found) {
    const api = await created<{ id: string; apiKey: string }>(
      await s.admin.post('/api/integrations', { name: 'Walk API', type: 'api' }),
    );
    const webhook = await created(
      await s.admin.post('/api/integrations', {
        name: 'Walk webhook',
        type: 'webhook',
        config: { webhookUrl: 'https://hooks.example.com/walk' },
      }),
    );
    found = { api: api.id, webhook: webhook.id, apiKey: api.apiKey };
    sideIntegrations.set(s.organizationId, found);
  }
  return found;
}

const integrationExists = (id: string) => async () => {
  const rows = await t.db.select({ id: integrations.id }).from(integrations).where(eq(integrations.id, id));
  expect(rows, `integration ${id} must survive a refused call`).toHaveLength(1);
};

/** The stored config (the encrypted webhook secret included) is what it was. */
async function integrationIntact(id: string) {
  const read = async () => (await t.db.select().from(integrations).where(eq(integrations.id, id)))[0];
  const before = await read();
  return async () => expect(await read(), `integration ${id} must not change on a refused call`).toEqual(before);
}

const apiKeyLive = (id: string) => async () => {
  const rows = await t.db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, id));
  expect(rows, `API key ${id} must stay live after a refused call`).toEqual([{ revokedAt: null }]);
};

/**
 * How to call each row with an admitted caller. The refusals come from the table, not from here;
 * TypeScript makes sure every row of the table has a fixture.
 */
const FIXTURES: Record<LiveRouteKey, Fixture> = {
  // Accounts
  'POST /api/register': async () => ({ url: '/api/register', body: newAccount('walk'), ok: 201 }),
  'POST /api/login': async (_s, _who, caller) => {
    const account = caller.account ?? spare;
    return { url: '/api/login', body: { username: account.username, password: account.password }, ok: 200 };
  },
  'POST /api/login/two-factor': async () => {
    // The spare account with two-factor on (afresh each time: a step's code works once).
    await setTwoFactor(spare.userId, true);
    const start = await new Client(t).post('/api/login', { username: spare.username, password: spare.password });
    const challenge = start.json<{ challenge: string }>().challenge;
    return {
      url: '/api/login/two-factor',
      body: { challenge, code: totpCode() },
      ok: 200,
      cleanup: () => setTwoFactor(spare.userId, false),
    };
  },
  'POST /api/logout': async (_s, _who, caller) => ({ url: '/api/logout', ok: 204, as: await newSession(caller) }),
  'GET /api/auth/user': async () => ({ url: '/api/auth/user', ok: 200 }),
  'PATCH /api/auth/user': async () => ({
    url: '/api/auth/user',
    body: { firstName: 'Role', lastName: 'Walker' },
    ok: 200,
  }),
  'PUT /api/auth/user/language': async () => ({ url: '/api/auth/user/language', body: { language: null }, ok: 200 }),
  'POST /api/change-password': async (_s, _who, caller) => {
    // The same password again: admitted callers keep signing in with it. This session stays.
    const password = caller.account?.password ?? 'correct-horse-9';
    return { url: '/api/change-password', body: { currentPassword: password, newPassword: password }, ok: 200 };
  },
  'POST /api/forgot-password': async () => ({ url: '/api/forgot-password', body: { email: spare.email }, ok: 200 }),
  'POST /api/reset-password': async () => {
    const token = newToken();
    await passwordResetRepository.insert(t.db, spare.userId, hashToken(token), new Date(Date.now() + 600_000));
    return { url: '/api/reset-password', body: { token, password: spare.password }, ok: 200 };
  },
  'POST /api/verify-email': async () => {
    const token = newToken();
    await emailVerificationRepository.insert(t.db, spare.userId, hashToken(token), new Date(Date.now() + 600_000));
    return { url: '/api/verify-email', body: { token }, ok: 200 };
  },
  'POST /api/verify-email/resend': async (_s, _who, caller) => {
    // Every caller here is unverified; the limit is 5 an hour per account, and each walk sends one.
    if (caller.account) {
      await t.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, caller.account.userId));
      await t.db.delete(rateLimits).where(eq(rateLimits.key, `verify:user:${caller.account.userId}`));
    }
    return { url: '/api/verify-email/resend', ok: 200 };
  },
  'GET /api/auth/two-factor': async () => ({ url: '/api/auth/two-factor', ok: 200 }),
  'POST /api/auth/two-factor/setup': async (_s, _who, caller) => {
    // Set-up waits for a verified address (decision 029); the resend row above leaves callers unverified.
    if (caller.account) await markVerified(caller.account.userId);
    return {
      url: '/api/auth/two-factor/setup',
      body: { password: caller.account?.password ?? 'correct-horse-9' },
      ok: 200,
    };
  },
  'POST /api/auth/two-factor/enable': async (_s, _who, caller) => {
    // Set up (not yet on) with the known secret; enabling keeps the caller's session, and is undone.
    const userId = caller.account?.userId;
    if (userId) await markVerified(userId);
    if (userId) await setTwoFactor(userId, false);
    if (userId)
      await t.db
        .update(users)
        .set({ twoFactorSecret: secretBox.encrypt(TOTP_SECRET) })
        .where(eq(users.id, userId));
    return {
      url: '/api/auth/two-factor/enable',
      body: { code: totpCode() },
      ok: 200,
      ...(userId ? { cleanup: () => setTwoFactor(userId, false) } : {}),
    };
  },
  'POST /api/auth/two-factor/disable': async (_s, _who, caller) =>
    withOwnTwoFactor(caller, {
      url: '/api/auth/two-factor/disable',
      body: { password: caller.account?.password ?? 'correct-horse-9', code: totpCode() },
      ok: 200,
    }),
  'POST /api/auth/two-factor/recovery-codes': async (_s, _who, caller) =>
    withOwnTwoFactor(caller, { url: '/api/auth/two-factor/recovery-codes', body: { code: totpCode() }, ok: 200 }),
  'GET /api/invitations/verify/:token': async (s) => {
    const { token } = await invitation(s, `invitee-${uid()}@example.com`);
    return { url: `/api/invitations/verify/${token}`, ok: 200 };
  },
  'POST /api/invitations/accept': async (s, who, caller) => {
    // An invitation to the caller's own email: a member already in the organization gets 409
    // already_member; anybody else joins (and is taken out again, so the walk goes on).
    const email = caller.account?.email ?? `invitee-${uid()}@example.com`;
    const { token } = await invitation(s, email);
    const joins = who === 'outsider' && caller.account;
    return {
      url: '/api/invitations/accept',
      body: { token },
      ok: joins ? 200 : 409,
      cleanup: joins ? () => leave(s.organizationId, caller.account!.userId) : undefined,
    };
  },

  // Organizations
  'GET /api/organizations': async () => ({ url: '/api/organizations', ok: 200 }),
  'POST /api/organizations': async () => ({ url: '/api/organizations', body: { name: `Walk ${uid()}` }, ok: 201 }),
  'GET /api/organizations/:id': async (s) => ({ url: `/api/organizations/${s.organizationId}`, ok: 200 }),
  'PUT /api/organizations/:id': async (s) => ({
    url: `/api/organizations/${s.organizationId}`,
    body: { contactPhone: `555-${uid()}` },
    ok: 200,
    intact: await unchanged(s, `/api/organizations/${s.organizationId}`),
  }),
  'GET /api/organizations/:id/members': async (s) => ({
    url: `/api/organizations/${s.organizationId}/members`,
    ok: 200,
  }),
  'PUT /api/organizations/:id/members/:userId': async (s) => {
    const userId = await throwaway.member(s);
    return {
      url: `/api/organizations/${s.organizationId}/members/${userId}`,
      body: { role: 'admin' },
      ok: 200,
      intact: memberExists(s.organizationId, userId, 'member'),
    };
  },
  'DELETE /api/organizations/:id/members/:userId': async (s) => {
    const userId = await throwaway.member(s);
    return {
      url: `/api/organizations/${s.organizationId}/members/${userId}`,
      ok: 204,
      intact: memberExists(s.organizationId, userId),
    };
  },
  'GET /api/organization-settings/:orgId': async (s) => ({
    url: `/api/organization-settings/${s.organizationId}`,
    ok: 200,
  }),
  'PUT /api/organization-settings/:orgId': async (s) => ({
    url: `/api/organization-settings/${s.organizationId}`,
    body: { pickupInstructions: `Front desk ${uid()}` },
    ok: 200,
    intact: await unchanged(s, `/api/organization-settings/${s.organizationId}`),
  }),
  'GET /api/user-invitations': async () => ({ url: '/api/user-invitations', ok: 200 }),
  'POST /api/user-invitations': async () => ({
    url: '/api/user-invitations',
    body: { email: `invitee-${uid()}@example.com`, role: 'member' },
    ok: 201,
  }),
  'POST /api/user-invitations/:id/resend': async (s) => {
    const { id, tokenHash } = await invitation(s, `invitee-${uid()}@example.com`);
    return { url: `/api/user-invitations/${id}/resend`, ok: 200, intact: invitationIntact(id, tokenHash) };
  },
  'DELETE /api/user-invitations/:id': async (s) => {
    const { id, tokenHash } = await invitation(s, `invitee-${uid()}@example.com`);
    return { url: `/api/user-invitations/${id}`, ok: 204, intact: invitationIntact(id, tokenHash) };
  },
  'GET /api/audit-log': async () => ({ url: '/api/audit-log', ok: 200 }),

  // Billing (the largest plan, so the walk's throwaway members always fit)
  'GET /api/plans': async () => ({ url: '/api/plans', ok: 200 }),
  'GET /api/licenses/summary': async () => ({ url: '/api/licenses/summary', ok: 200 }),
  'GET /api/licenses/active': async () => ({ url: '/api/licenses/active', ok: 200 }),
  'GET /api/billing/payments': async () => ({ url: '/api/billing/payments', ok: 200 }),
  'POST /api/billing/create-checkout-session': async (s) => ({
    url: '/api/billing/create-checkout-session',
    cleanup: freshBillingBudget,
    body: { planId: 'enterprise', quantity: 1000 },
    ok: 200,
    intact: await unchangedRows(checkoutsOf(s)),
  }),
  'POST /api/billing/create-portal-session': async (s) => {
    const customerId = `cus_walk_${s.organizationId}`;
    stripe.addCustomer(customerId);
    await t.db
      .update(organizations)
      .set({ stripeCustomerId: customerId })
      .where(eq(organizations.id, s.organizationId));
    return { url: '/api/billing/create-portal-session', body: {}, ok: 200, cleanup: freshBillingBudget };
  },
  'GET /api/billing/demo-checkouts/:id': async (s) => ({
    url: `/api/billing/demo-checkouts/${await demoCheckoutOf(s)}`,
    ok: 200,
    instance: demo,
  }),
  'POST /api/billing/demo-checkouts/:id/complete': async (s) => ({
    url: `/api/billing/demo-checkouts/${await demoCheckoutOf(s)}/complete`,
    ok: 200,
    intact: await unchanged(s, `/api/organizations/${s.organizationId}`),
    instance: demo,
  }),
  'GET /api/paypal/setup': async () => ({ url: '/api/paypal/setup', ok: 200, instance: demo }),
  'POST /api/paypal/order': async (s) => {
    await freshBillingBudget();
    return {
      url: '/api/paypal/order',
      body: { planType: 'enterprise', userCount: 1000 },
      ok: 200,
      intact: await unchangedRows(checkoutsOf(s)),
      instance: demo,
    };
  },
  'POST /api/paypal/order/:id/capture': async (s) => {
    await freshBillingBudget();
    const order = await created<{ id: string }>(
      await onDemo(s.admin).post('/api/paypal/order', { planType: 'enterprise', userCount: 1000 }),
      200,
    );
    return {
      url: `/api/paypal/order/${order.id}/capture`,
      body: { planType: 'enterprise', userCount: 1000 },
      ok: 200,
      intact: await unchanged(s, `/api/organizations/${s.organizationId}`),
      instance: demo,
    };
  },
  'POST /api/organizations/:id/upgrade': async (s) => {
    // A verified (demo) payment for exactly this plan and seat count backs the call.
    await onDemo(s.admin).post(`/api/billing/demo-checkouts/${await demoCheckoutOf(s)}/complete`);
    return {
      url: `/api/organizations/${s.organizationId}/upgrade`,
      body: { planType: 'enterprise', userCount: 1000 },
      ok: 200,
    };
  },
  'POST /api/webhooks/stripe': async () => {
    // An event the product does not act on: verified, recorded, ignored.
    const payload = JSON.stringify(stripeEvent('customer.created', { id: `cus_${uid()}`, object: 'customer' }));
    return {
      url: '/api/webhooks/stripe',
      body: payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signStripePayload(payload, STRIPE_WEBHOOK_SECRET),
      },
      ok: 200,
    };
  },

  // Super admin
  'GET /api/super-admin/stats': async () => ({ url: '/api/super-admin/stats', ok: 200 }),
  'GET /api/super-admin/organizations': async () => ({ url: '/api/super-admin/organizations?search=a', ok: 200 }),
  'GET /api/super-admin/users': async () => ({ url: '/api/super-admin/users?limit=5', ok: 200 }),
  'GET /api/super-admin/logs': async () => ({ url: '/api/super-admin/logs?kind=super_admin', ok: 200 }),
  'PATCH /api/super-admin/organizations/:orgId': async (s) => {
    const where = eq(organizations.id, s.organizationId);
    const [plan] = await t.db
      .select({
        planType: organizations.planType,
        maxUsers: organizations.maxUsers,
        maxPackagesPerMonth: organizations.maxPackagesPerMonth,
      })
      .from(organizations)
      .where(where);
    return {
      url: `/api/super-admin/organizations/${s.organizationId}`,
      body: { planType: 'enterprise' },
      ok: 200,
      intact: await unchanged(s, `/api/organizations/${s.organizationId}`),
      cleanup: async () => {
        await t.db.update(organizations).set(plan!).where(where);
      },
    };
  },
  'PATCH /api/super-admin/users/:userId': async () => ({
    url: `/api/super-admin/users/${spare.userId}`,
    body: { isSuperAdmin: true },
    ok: 200,
    intact: async () => expect((await usersRepository.findById(t.db, spare.userId))?.isSuperAdmin).toBe(false),
    cleanup: async () => {
      await usersRepository.update(t.db, spare.userId, { isSuperAdmin: false });
    },
  }),

  'GET /api/super-admin/organizations/:orgId/domains': async (s) => ({
    url: `/api/super-admin/organizations/${s.organizationId}/domains`,
    ok: 200,
  }),
  'POST /api/super-admin/organizations/:orgId/domains/:id/verify': async (s) => {
    const id = await throwawayDomain(s);
    return {
      url: `/api/super-admin/organizations/${s.organizationId}/domains/${id}/verify`,
      ok: 200,
      intact: domainPending(id),
    };
  },

  // Single sign-on's email domains
  'GET /api/domains': async () => ({ url: '/api/domains', ok: 200 }),
  'POST /api/domains': async (s) => {
    await clearWalkDomains(s.organizationId);
    return { url: '/api/domains', body: { domain: `walk-${uid()}.example` }, ok: 201 };
  },
  // Marked verified beforehand, so an admitted check answers 200 without asking any DNS server
  // (the checks themselves are domains.test.ts's, against a server on loopback).
  'POST /api/domains/:id/verify': async (s) => {
    const id = await throwawayDomain(s);
    await t.db
      .update(organizationDomains)
      .set({ status: 'verified', verifiedAt: new Date(), verifiedBy: 'dns' })
      .where(eq(organizationDomains.id, id));
    return { url: `/api/domains/${id}/verify`, ok: 200 };
  },
  'DELETE /api/domains/:id': async (s) => {
    const id = await throwawayDomain(s);
    return { url: `/api/domains/${id}`, ok: 204, intact: domainPending(id) };
  },
  // SAML's public endpoints (decision 062); the sign-ins themselves are sso/saml/saml.test.ts's,
  // against a real identity provider. Without a connection the ACS sends the browser back to the
  // sign-in page (303) and creates nothing.
  'GET /api/sso/saml/service-provider': async () => ({ url: '/api/sso/saml/service-provider', ok: 200 }),
  'GET /api/sso/saml/:organizationId/metadata': async (s) => ({
    url: `/api/sso/saml/${s.organizationId}/metadata`,
    ok: 200,
  }),
  'POST /api/sso/saml/:organizationId/acs': async (s) => ({
    url: `/api/sso/saml/${s.organizationId}/acs`,
    body: 'SAMLResponse=PHg%2B',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    ok: 303,
  }),

  // Single sign-on's connection (decision 059): made beforehand where the call needs one; the
  // sign-in itself is sso.test.ts's, against a real provider on loopback.
  'GET /api/sso/connection': async (s) => {
    await ensureSsoConnection(s.organizationId);
    return { url: '/api/sso/connection', ok: 200 };
  },
  'PUT /api/sso/connection': async (s) => ({
    url: '/api/sso/connection',
    body: {
      protocol: 'oidc',
      enabled: false,
      oidcIssuer: 'https://idp.example.com',
      oidcClientId: 'pigeonhole',
      oidcClientSecret: 'walk-secret',
      breakGlassUserId: s.adminAccount.userId,
    },
    ok: 200,
  }),
  'DELETE /api/sso/connection': async (s) => {
    await ensureSsoConnection(s.organizationId);
    return { url: '/api/sso/connection', ok: 204, intact: ssoConnectionKept(s.organizationId) };
  },
  // A loopback issuer is refused by the outbound guard at once: 200 with ok false, no network.
  'POST /api/sso/connection/test': async () => ({
    url: '/api/sso/connection/test',
    body: { oidcIssuer: 'https://127.0.0.1:9/' },
    ok: 200,
  }),
  'POST /api/sso/lookup': async () => ({ url: '/api/sso/lookup', body: { email: `walk@${uid()}.example` }, ok: 200 }),
  'GET /api/sso/start': async () => ({ url: `/api/sso/start?email=walk%40${uid()}.example`, ok: 302 }),
  'GET /api/sso/oidc/callback': async () => ({ url: `/api/sso/oidc/callback?state=${uid()}&code=x`, ok: 302 }),

  // The resident roster (decision 061)
  'GET /api/roster/sources': async () => ({ url: '/api/roster/sources', ok: 200 }),
  'POST /api/roster/sources': async (s) => {
    await t.db.delete(rosterSources).where(eq(rosterSources.organizationId, s.organizationId));
    return { url: '/api/roster/sources', body: ROSTER_SOURCE_BODY, ok: 201 };
  },
  'PUT /api/roster/sources/:id': async (s) => {
    const id = await throwawayRosterSource(s);
    return { url: `/api/roster/sources/${id}`, body: ROSTER_SOURCE_BODY, ok: 200, intact: rosterSourceExists(id) };
  },
  'DELETE /api/roster/sources/:id': async (s) => {
    const id = await throwawayRosterSource(s);
    return { url: `/api/roster/sources/${id}`, ok: 204, intact: rosterSourceExists(id) };
  },
  'POST /api/roster/sources/:id/run': async (s) => {
    const id = await throwawayRosterSource(s);
    return { url: `/api/roster/sources/${id}/run`, ok: 200, intact: rosterSourceExists(id) };
  },
  'GET /api/roster/runs': async () => ({ url: '/api/roster/runs', ok: 200 }),
  'GET /api/roster/runs/:id/preview': async (s) => ({
    url: `/api/roster/runs/${await waitingRosterRun(s)}/preview`,
    ok: 200,
  }),
  'POST /api/roster/runs/:id/approve': async (s) => {
    const id = await waitingRosterRun(s);
    return { url: `/api/roster/runs/${id}/approve`, ok: 200, intact: rosterRunWaiting(id) };
  },
  'POST /api/roster/runs/:id/reject': async (s) => {
    const id = await waitingRosterRun(s);
    return { url: `/api/roster/runs/${id}/reject`, ok: 200, intact: rosterRunWaiting(id) };
  },

  // Directory (SCIM): tokens by session, the protocol by token (walked in "a SCIM token")
  'GET /api/scim/tokens': async () => ({ url: '/api/scim/tokens', ok: 200 }),
  'GET /api/scim/requests': async () => ({ url: '/api/scim/requests?limit=5', ok: 200 }),
  'POST /api/scim/tokens': async () => ({ url: '/api/scim/tokens', body: { name: `Walk ${uid()}` }, ok: 201 }),
  'POST /api/scim/tokens/:id/revoke': async (s) => {
    const id = (await created(await s.admin.post('/api/scim/tokens', { name: `Walk ${uid()}` }))).id;
    return { url: `/api/scim/tokens/${id}/revoke`, ok: 200 };
  },
  'GET /scim/v2/ServiceProviderConfig': async () => ({ url: '/scim/v2/ServiceProviderConfig', ok: 200 }),
  'GET /scim/v2/ResourceTypes': async () => ({ url: '/scim/v2/ResourceTypes', ok: 200 }),
  'GET /scim/v2/ResourceTypes/:id': async () => ({ url: '/scim/v2/ResourceTypes/User', ok: 200 }),
  'GET /scim/v2/Schemas': async () => ({ url: '/scim/v2/Schemas', ok: 200 }),
  'GET /scim/v2/Schemas/:id': async () => ({
    url: '/scim/v2/Schemas/urn:ietf:params:scim:schemas:core:2.0:User',
    ok: 200,
  }),
  'GET /scim/v2/Users': async () => ({ url: '/scim/v2/Users', ok: 200 }),
  'POST /scim/v2/Users': async () => ({
    url: '/scim/v2/Users',
    body: scimUserBody(`walk-${uid()}@example.com`),
    ok: 201,
  }),
  'GET /scim/v2/Users/:id': async (s) => {
    const { id } = await throwawayScimUser(s);
    return { url: `/scim/v2/Users/${id}`, ok: 200 };
  },
  'PUT /scim/v2/Users/:id': async (s) => {
    const { id, userName } = await throwawayScimUser(s);
    return { url: `/scim/v2/Users/${id}`, body: scimUserBody(userName), ok: 200, intact: scimUserActive(id) };
  },
  'PATCH /scim/v2/Users/:id': async (s) => {
    const { id } = await throwawayScimUser(s);
    return {
      url: `/scim/v2/Users/${id}`,
      body: { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
      ok: 200,
      intact: scimUserActive(id),
    };
  },
  'DELETE /scim/v2/Users/:id': async (s) => {
    const { id } = await throwawayScimUser(s);
    return { url: `/scim/v2/Users/${id}`, ok: 204, intact: scimUserActive(id) };
  },
  'GET /scim/v2/Groups': async () => ({ url: '/scim/v2/Groups', ok: 200 }),
  'POST /scim/v2/Groups': async () => ({
    url: '/scim/v2/Groups',
    body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `Walk ${uid()}` },
    ok: 201,
  }),
  'GET /scim/v2/Groups/:id': async (s) => ({ url: `/scim/v2/Groups/${await throwawayScimGroup(s)}`, ok: 200 }),
  'PUT /scim/v2/Groups/:id': async (s) => ({
    url: `/scim/v2/Groups/${await throwawayScimGroup(s)}`,
    body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `Walk ${uid()}` },
    ok: 200,
  }),
  'PATCH /scim/v2/Groups/:id': async (s) => ({
    url: `/scim/v2/Groups/${await throwawayScimGroup(s)}`,
    body: { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'displayName', value: `Walk ${uid()}` }] },
    ok: 200,
  }),
  'DELETE /scim/v2/Groups/:id': async (s) => ({ url: `/scim/v2/Groups/${await throwawayScimGroup(s)}`, ok: 204 }),

  // Integrations
  'GET /api/integrations': async () => ({ url: '/api/integrations', ok: 200 }),
  'POST /api/integrations': async () => ({
    url: '/api/integrations',
    body: { name: `Walk ${uid()}`, type: 'api' },
    ok: 201,
  }),
  'PUT /api/integrations/:id': async (s) => {
    const { webhook } = await integrationsOf(s);
    return {
      url: `/api/integrations/${webhook}`,
      body: { name: `Walk webhook ${uid()}` },
      ok: 200,
      intact: await integrationIntact(webhook),
    };
  },
  'DELETE /api/integrations/:id': async (s) => {
    const id = (await created(await s.admin.post('/api/integrations', { name: `Temp ${uid()}`, type: 'api' }))).id;
    return { url: `/api/integrations/${id}`, ok: 204, intact: integrationExists(id) };
  },
  'POST /api/integrations/:id/rotate-secret': async (s) => {
    const { webhook } = await integrationsOf(s);
    return { url: `/api/integrations/${webhook}/rotate-secret`, ok: 200, intact: await integrationIntact(webhook) };
  },
  'POST /api/integrations/:id/test': async (s) => {
    // An API integration's test sends nothing anywhere.
    const { api } = await integrationsOf(s);
    return { url: `/api/integrations/${api}/test`, body: {}, ok: 200 };
  },
  'GET /api/integrations/:id/deliveries': async (s) => ({
    url: `/api/integrations/${(await integrationsOf(s)).webhook}/deliveries`,
    ok: 200,
  }),
  // An admin reaches the check of the type (a webhook has no Slack channels); Slack itself is
  // exercised in integrations/slack.test.ts against the local Slack server.
  'GET /api/integrations/:id/slack-channels': async (s) => ({
    url: `/api/integrations/${(await integrationsOf(s)).webhook}/slack-channels`,
    ok: 400,
  }),
  'GET /api/integrations/:id/api-keys': async (s) => ({
    url: `/api/integrations/${(await integrationsOf(s)).api}/api-keys`,
    ok: 200,
  }),
  'POST /api/integrations/:id/api-keys': async (s) => ({
    url: `/api/integrations/${(await integrationsOf(s)).api}/api-keys`,
    body: { name: `Walk key ${uid()}` },
    ok: 201,
  }),
  'DELETE /api/integrations/:id/api-keys/:keyId': async (s) => {
    const { api } = await integrationsOf(s);
    const key = await created(await s.admin.post(`/api/integrations/${api}/api-keys`, { name: `Temp ${uid()}` }));
    return { url: `/api/integrations/${api}/api-keys/${key.id}`, ok: 204, intact: apiKeyLive(key.id) };
  },

  // Dashboard and reports
  'GET /api/events': async (side, who, caller) => {
    const url = `/api/events?organizationId=${side.organizationId}`;
    if ((who !== 'member' && who !== 'admin') || !caller.account) return { url, ok: 200 };
    // Admitted, the stream never ends by itself: a second session of the caller holds it, and
    // signing that session out once the stream is open ends it (with `ended`), as for a browser.
    const as = await newSession(caller);
    const before = t.app.liveHub.size;
    const deadline = Date.now() + 5_000;
    void (async () => {
      while (t.app.liveHub.size <= before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await send(as, 'POST', '/api/logout');
    })();
    return { url, ok: 200, as };
  },
  'GET /api/dashboard/stats': async () => ({ url: '/api/dashboard/stats', ok: 200 }),
  'GET /api/dashboard/recent-activity': async () => ({ url: '/api/dashboard/recent-activity?limit=5', ok: 200 }),
  'GET /api/dashboard/trends': async () => ({ url: '/api/dashboard/trends', ok: 200 }),
  'GET /api/history': async () => ({ url: '/api/history?range=30', ok: 200 }),
  'GET /api/history/stats': async () => ({ url: '/api/history/stats?range=30', ok: 200 }),
  'GET /api/history/export': async () => ({ url: '/api/history/export?range=30', ok: 200 }),
  'GET /api/analytics': async () => ({ url: '/api/analytics?range=30', ok: 200 }),

  // Recipients
  'GET /api/recipients': async () => ({ url: '/api/recipients', ok: 200 }),
  'GET /api/recipients/summary': async () => ({ url: '/api/recipients/summary', ok: 200 }),
  'GET /api/recipients/:id': async (s) => ({ url: `/api/recipients/${s.recipientId}`, ok: 200 }),
  'POST /api/recipients': async () => ({
    url: '/api/recipients',
    body: { firstName: 'Walk', lastName: uid() },
    ok: 201,
  }),
  'PUT /api/recipients/:id': async (s) => ({
    url: `/api/recipients/${s.recipientId}`,
    body: { unit: uid() },
    ok: 200,
    intact: await unchanged(s, `/api/recipients/${s.recipientId}`),
  }),
  'DELETE /api/recipients/:id': async (s) => {
    const id = await throwaway.recipient(s);
    return { url: `/api/recipients/${id}`, ok: 204, intact: rowExists(recipients, id) };
  },
  'POST /api/recipients/import/preview': async () => ({
    url: '/api/recipients/import/preview',
    body: { csv: `firstName,lastName\nGrace,${uid()}\n` },
    ok: 200,
  }),
  'POST /api/recipients/import': async () => ({
    url: '/api/recipients/import',
    body: { csv: `firstName,lastName\nGrace,${uid()}\n` },
    ok: 200,
  }),
  'GET /api/recipients/:id/personal-data': async (s) => ({
    url: `/api/recipients/${s.recipientId}/personal-data`,
    ok: 200,
  }),
  'GET /api/pickups/lookup': async (s) => ({
    url: `/api/pickups/lookup?code=${await pickupCodeOf(s.recipientId)}`,
    ok: 200,
  }),
  'GET /api/recipients/:id/pickup-lookup': async (s) => ({
    url: `/api/recipients/${s.recipientId}/pickup-lookup`,
    ok: 200,
  }),
  'GET /api/expected-packages/match': async (s) => {
    const tracking = `EXP${uid()}`;
    await t.db.insert(expectedPackages).values({
      organizationId: s.organizationId,
      recipientId: s.recipientId,
      trackingNumber: tracking,
      matchKey: tracking.toUpperCase(),
    });
    return { url: `/api/expected-packages/match?tracking=${tracking}`, ok: 200 };
  },
  'GET /api/recipients/:id/pickup-code': async (s) => ({
    url: `/api/recipients/${s.recipientId}/pickup-code`,
    ok: 200,
  }),
  'POST /api/recipients/:id/pickup-code': async (s) => {
    const id = await throwaway.recipient(s);
    const before = await pickupCodeOf(id);
    return {
      url: `/api/recipients/${id}/pickup-code`,
      ok: 200,
      intact: async () => expect(await pickupCodeOf(id)).toBe(before),
    };
  },
  'GET /api/recipients/:id/proxies': async (s) => ({ url: `/api/recipients/${s.recipientId}/proxies`, ok: 200 }),
  'POST /api/recipients/:id/proxies': async (s) => {
    const id = await throwaway.recipient(s);
    return {
      url: `/api/recipients/${id}/proxies`,
      body: { name: `Proxy ${uid()}` },
      ok: 201,
      intact: await unchanged(s, `/api/recipients/${id}/proxies`),
    };
  },
  'DELETE /api/recipients/:id/proxies/:proxyId': async (s) => {
    const id = await throwaway.recipient(s);
    const proxy = await created(await s.admin.post(`/api/recipients/${id}/proxies`, { name: `Proxy ${uid()}` }));
    return {
      url: `/api/recipients/${id}/proxies/${proxy.id}`,
      ok: 204,
      intact: await unchanged(s, `/api/recipients/${id}/proxies`),
    };
  },
  // The recipient's page (decision 032): staff callers are all refused; portal.test.ts walks the recipient.
  'POST /api/portal/links': async () => ({
    url: '/api/portal/links',
    body: { address: `nobody.${uid()}@example.com` },
    ok: 202,
  }),
  'POST /api/portal/session': async () => ({ url: '/api/portal/session', body: { token: `forged-${uid()}` }, ok: 400 }),
  'DELETE /api/portal/session': async () => ({ url: '/api/portal/session', ok: 204 }),
  'GET /api/portal/me': async () => ({ url: '/api/portal/me', ok: 200 }),
  'POST /api/portal/pickup-code': async () => ({ url: '/api/portal/pickup-code', ok: 200 }),
  'PUT /api/portal/language': async () => ({ url: '/api/portal/language', body: { language: 'es' }, ok: 200 }),
  'PUT /api/portal/preferences': async () => ({
    url: '/api/portal/preferences',
    body: { notifyChannels: ['email'] },
    ok: 200,
  }),
  'GET /api/portal/items': async () => ({ url: '/api/portal/items', ok: 200 }),
  'GET /api/portal/items/:id/photo': async (s) => ({ url: `/api/portal/items/${s.mailItemId}/photo`, ok: 200 }),
  'GET /api/portal/items/:id/photo/thumbnail': async (s) => ({
    url: `/api/portal/items/${s.mailItemId}/photo/thumbnail`,
    ok: 200,
  }),
  'PUT /api/portal/items/:id/hold': async (s) => ({
    url: `/api/portal/items/${s.mailItemId}/hold`,
    body: { until: null },
    ok: 200,
  }),
  'GET /api/portal/proxies': async () => ({ url: '/api/portal/proxies', ok: 200 }),
  'POST /api/portal/proxies': async () => ({ url: '/api/portal/proxies', body: { name: `Proxy ${uid()}` }, ok: 201 }),
  'DELETE /api/portal/proxies/:proxyId': async () => ({ url: `/api/portal/proxies/${crypto.randomUUID()}`, ok: 204 }),
  'GET /api/portal/expected': async () => ({ url: '/api/portal/expected', ok: 200 }),
  'POST /api/portal/expected': async () => ({
    url: '/api/portal/expected',
    body: { trackingNumber: uniqueTrackingNumber() },
    ok: 201,
  }),
  // Past the guard, a number the recipient never registered: not found (expected-packages.test.ts removes real ones).
  'DELETE /api/portal/expected/:id': async () => ({ url: `/api/portal/expected/${crypto.randomUUID()}`, ok: 404 }),
  'POST /api/handovers': async (s) => {
    const id = await throwaway.mailItem(s);
    return {
      url: '/api/handovers',
      body: {
        itemIds: [id],
        collectorName: 'Walk Collector',
        identifiedBy: 'known_to_staff',
        proxyReason: 'Walk-in, asked at the desk',
        signatureData: await signaturePng(),
      },
      ok: 201,
      intact: async () => expect((await s.admin.get(`/api/mail-items/${id}`)).json().status).toBe('pending'),
    };
  },
  'GET /api/handovers/:id': async (s) => {
    const id = await throwaway.mailItem(s);
    const handover = await created(
      await s.admin.post('/api/handovers', {
        itemIds: [id],
        collectorName: 'Walk Collector',
        identifiedBy: 'known_to_staff',
        proxyReason: 'Walk-in, asked at the desk',
        signatureData: await signaturePng(),
      }),
    );
    return { url: `/api/handovers/${handover.id}`, ok: 200 };
  },
  'POST /api/recipients/:id/erase': async (s) => {
    const id = await throwaway.recipient(s);
    return {
      url: `/api/recipients/${id}/erase`,
      body: { confirm: true },
      ok: 200,
      intact: await unchanged(s, `/api/recipients/${id}`),
    };
  },

  // Mailrooms and locations
  'GET /api/mailrooms': async () => ({ url: '/api/mailrooms', ok: 200 }),
  'POST /api/mailrooms': async () => ({ url: '/api/mailrooms', body: { name: `Room ${uid()}` }, ok: 201 }),
  'PUT /api/mailrooms/:id': async (s) => ({
    url: `/api/mailrooms/${s.mailroomId}`,
    body: { description: `Front ${uid()}` },
    ok: 200,
    intact: await unchanged(s, '/api/mailrooms'),
  }),
  'DELETE /api/mailrooms/:id': async (s) => {
    const id = await throwaway.mailroom(s);
    return { url: `/api/mailrooms/${id}`, ok: 204, intact: rowExists(mailrooms, id) };
  },
  'GET /api/mailroom-locations': async () => ({ url: '/api/mailroom-locations', ok: 200 }),
  'POST /api/mailroom-locations': async (s) => ({
    url: '/api/mailroom-locations',
    body: { name: `Shelf ${uid()}`, type: 'shelf', mailroomId: s.mailroomId },
    ok: 201,
  }),
  'PUT /api/mailroom-locations/:id': async (s) => ({
    url: `/api/mailroom-locations/${s.locationId}`,
    body: { notes: `Top shelf ${uid()}` },
    ok: 200,
    intact: await unchanged(s, '/api/mailroom-locations'),
  }),
  'DELETE /api/mailroom-locations/:id': async (s) => {
    const id = await throwaway.location(s);
    return { url: `/api/mailroom-locations/${id}`, ok: 204, intact: rowExists(mailroomLocations, id) };
  },

  // Mail items
  'GET /api/mail-items': async () => ({ url: '/api/mail-items', ok: 200 }),
  'GET /api/mail-items/pending-summary': async () => ({ url: '/api/mail-items/pending-summary', ok: 200 }),
  'GET /api/mail-items/:id': async (s) => ({ url: `/api/mail-items/${s.mailItemId}`, ok: 200 }),
  'GET /api/mail-items/:id/history': async (s) => ({ url: `/api/mail-items/${s.mailItemId}/history`, ok: 200 }),
  'POST /api/mail-items': async (s) => ({
    url: '/api/mail-items',
    body: { type: 'package', recipientId: s.recipientId, locationId: s.locationId },
    ok: 201,
  }),
  'GET /api/mail-items/needs-recipient': async () => ({ url: '/api/mail-items/needs-recipient', ok: 200 }),
  'GET /api/mail-items/needs-recipient/count': async () => ({ url: '/api/mail-items/needs-recipient/count', ok: 200 }),
  'POST /api/mail-items/needs-recipient': async (s) => ({
    url: '/api/mail-items/needs-recipient',
    body: { type: 'package', trackingNumber: `1Z${uid()}`, locationId: s.locationId },
    ok: 201,
  }),
  'POST /api/mail-items/:id/resolve': async (s) => {
    const id = (await created(await s.admin.post('/api/mail-items/needs-recipient', { type: 'letter' }))).id;
    return {
      url: `/api/mail-items/${id}/resolve`,
      body: { recipientId: s.recipientId },
      ok: 200,
      intact: async () => expect((await s.admin.get(`/api/mail-items/${id}`)).json().status).toBe('needs_recipient'),
    };
  },
  'PUT /api/mail-items/:id': async (s) => ({
    url: `/api/mail-items/${s.mailItemId}`,
    body: { notes: `Fragile ${uid()}` },
    ok: 200,
    intact: await unchanged(s, `/api/mail-items/${s.mailItemId}`),
  }),
  'POST /api/mail-items/:id/delete': async (s) => {
    const id = await throwaway.mailItem(s);
    return { url: `/api/mail-items/${id}/delete`, ok: 204, intact: rowExists(mailItems, id) };
  },
  'DELETE /api/mail-items/:id': async (s) => {
    const id = await throwaway.mailItem(s);
    return { url: `/api/mail-items/${id}`, ok: 204, intact: rowExists(mailItems, id) };
  },
  'GET /api/mail-items/:id/notifications': async (s) => ({
    url: `/api/mail-items/${s.mailItemId}/notifications`,
    ok: 200,
  }),
  'GET /api/photos/:id': async (s) => ({ url: `/api/photos/${s.photoId}`, ok: 200 }),
  'GET /api/photos/:id/thumbnail': async (s) => ({ url: `/api/photos/${s.photoId}/thumbnail`, ok: 200 }),

  // Operations
  'GET /api/health': async () => ({ url: '/api/health', ok: 200 }),
  'GET /api/ready': async () => ({ url: '/api/ready', ok: 200 }),
  // Not a session's call: the scraper's token, whoever else the caller is.
  'GET /metrics': async () => ({
    url: '/metrics',
    ok: 200,
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  }),
  'GET /api/unsubscribe/:token': async (s) => ({
    url: `/api/unsubscribe/${unsubscribeToken(t.app.notifications.unsubscribeKey, await throwaway.recipient(s))}`,
    ok: 200,
  }),
  'POST /api/unsubscribe/:token': async (s) => ({
    url: `/api/unsubscribe/${unsubscribeToken(t.app.notifications.unsubscribeKey, await throwaway.recipient(s))}`,
    ok: 200,
  }),
  'GET /api/docs': async () => ({ url: '/api/docs', ok: 200 }),
  'GET /api/docs/': async () => ({ url: '/api/docs/', ok: 200 }),
  'GET /api/docs/json': async () => ({ url: '/api/docs/json', ok: 200 }),
  'GET /api/docs/yaml': async () => ({ url: '/api/docs/yaml', ok: 200 }),
  'GET /api/docs/static/index.html': async () => ({ url: '/api/docs/static/index.html', ok: 302 }),
  'GET /api/docs/static/swagger-initializer.js': async () => ({
    url: '/api/docs/static/swagger-initializer.js',
    ok: 200,
  }),
  'GET /api/docs/static/*': async () => ({ url: '/api/docs/static/swagger-ui.css', ok: 200 }),
};

/**
 * The routes Fastify registered, as "METHOD /path", read from the router tree of each method
 * (`printRoutes({ method })` prints the real radix tree: a route's path is its ancestors' labels
 * joined). HEAD routes are the automatic twins of GET routes and are compared separately.
 */
function registeredRoutes(method: string): string[] {
  const tree = t.app.printRoutes({ method });
  const labels: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    labels.length = depth;
    labels.push(m[2]!);
    if (m[3]) for (const each of m[3].split(', ')) routes.push(`${each} ${labels.join('')}`);
  }
  return routes;
}

/** A route @fastify/static registered for a file of the built web client (only when it is built). */
function isClientFile(key: string) {
  const [method, url = ''] = key.split(' ');
  if (method !== 'GET' || url.startsWith('/api/')) return false;
  if (url === '/assets/*') return true;
  return !/[:*]/.test(url) && fs.existsSync(path.join(t.config.rootDir, CLIENT_FILES_DIR, url));
}

let A: Side;
let B: Side;
let superAdmin: Caller;

const STRIPE_WEBHOOK_SECRET = 'whsec_role_walk';
const METRICS_TOKEN = 'metrics-token-of-the-role-walk';
let stripe: Awaited<ReturnType<typeof startStripeServer>>;

beforeAll(async () => {
  // Card payments go to a local server speaking Stripe's API; the demo provider's and PayPal's
  // calls to an instance without keys (demo on), since a server with keys offers no demo provider.
  stripe = await startStripeServer();
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_role_walk',
    STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    METRICS_TOKEN,
  });
  demo = await createSecondInstance(t, { STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' });
  afterAll(() => stripe.close());
  A = await makeSide('Harbor');
  B = await makeSide('Bayside');
  const c = new Client(t);
  const reg = await c.register();
  spare = { ...reg, userId: reg.user.id };
  const root = new Client(t);
  const rootAccount = await root.register();
  expect(await grantSuperAdmin(t.db, rootAccount.email)).toBe('granted');
  superAdmin = callerOf('super admin', root, { ...rootAccount, userId: rootAccount.user.id });
}, 60_000);

// The walk makes one person's refused billing calls and one recipient's page writes by the dozen,
// far past their rates (decision 052: 5 audited refusals, 20 page writes a window), which would
// answer 429 instead of the status each row is about. Each case starts with those counters empty;
// the rates themselves are proved in billing.test.ts and portal.test.ts.
beforeEach(async () => {
  await t.asOwner(`delete from rate_limits where key like 'billing-refused:%' or key like 'portal-write:%'`);
});

describe('the role table', () => {
  it('lists exactly the routes the app registers', () => {
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
    const registered = methods.flatMap((m) => registeredRoutes(m)).filter((k) => !isClientFile(k));
    const live: string[] = ROLE_TABLE.filter(isLive).map(liveKey);
    expect(
      registered.filter((k) => !live.includes(k)),
      'registered routes without a row in role-table.ts',
    ).toEqual([]);
    expect(
      live.filter((k) => !registered.includes(k)),
      'rows of role-table.ts without a registered route',
    ).toEqual([]);
    expect(registered).toHaveLength(live.length);
    // Every route registered by another method (OPTIONS, SEARCH...) or by HEAD alone would be missed above.
    const gets = registeredRoutes('GET').map((k) => k.replace(/^GET /, ''));
    expect(
      registeredRoutes('HEAD')
        .map((k) => k.replace(/^HEAD /, ''))
        .sort(),
    ).toEqual(gets.sort());
    for (const m of ['OPTIONS', 'TRACE', 'SEARCH', 'PROPFIND']) expect(registeredRoutes(m)).toEqual([]);
  });

  it('has no planned row whose route exists (remove `planned` to walk it)', () => {
    for (const row of ROLE_TABLE.filter(isPlanned)) {
      expect(t.app.hasRoute({ method: row.method, url: row.path }), routeKey(row)).toBe(false);
    }
  });

  it('has no duplicate rows', () => {
    const keys = ROLE_TABLE.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is what docs/roles.md shows', async () => {
    const file = path.resolve(process.cwd(), 'docs/roles.md');
    const options = (await prettier.resolveConfig(file)) ?? {};
    const markdown = await prettier.format(renderRolesMarkdown(), { ...options, filepath: file });
    await expect(markdown).toMatchFileSnapshot(file);
  });
});

/** Status and error code of one request, for a readable failure. */
async function attempt(who: Who, caller: Caller, row: RoleTableRow, call: Call) {
  const as = call.as ?? caller;
  const res = await send(as, row.method, call.url, call.body, call.headers, call.instance);
  await call.cleanup?.();
  return { res, label: `${routeKey(row)} as ${as.label} (${who}) → ${res.statusCode} ${res.body.slice(0, 200)}` };
}

describe('every row, walked with each kind of caller', () => {
  for (const row of ROLE_TABLE) {
    if (!isLive(row)) {
      it.todo(`${routeKey(row)} (planned: route not registered yet)`);
      continue;
    }
    const key = liveKey(row);
    it(key, async () => {
      const fixture = FIXTURES[key];
      const refused = refusals(row);
      const signedOut: Caller = { label: 'signed out', organizationId: A.organizationId };
      const outsider = callerOf(`${B.name} admin with ${A.name} selected`, B.admin, B.adminAccount);
      outsider.organizationId = A.organizationId;
      const member = callerOf(`${A.name} member`, A.memberClient, A.memberAccount);
      const admin = callerOf(`${A.name} admin`, A.admin, A.adminAccount);

      // Signed out.
      {
        const call = await fixture(A, 'signedOut', signedOut);
        const { res, label } = await attempt('signedOut', signedOut, row, call);
        expect.soft(res.statusCode, label).toBe(refused.signedOut ?? call.ok);
        if (refused.signedOut === 401) {
          expect
            .soft(res.json(), label)
            .toMatchObject(row.access === 'scim' ? { status: '401' } : { code: 'unauthenticated' });
          await call.intact?.();
        }
      }
      // A signed-in user of another organization (B's admin), naming A.
      {
        const call = await fixture(A, 'outsider', outsider);
        const { res, label } = await attempt('outsider', outsider, row, call);
        expect.soft(res.statusCode, label).toBe(refused.nonMember ?? call.ok);
        if (refused.nonMember === 403 && row.organization === 'header') {
          expect.soft(res.json(), label).toEqual({ message: NOT_A_MEMBER, code: 'not_a_member' });
        }
        if (refused.nonMember === 404) expect.soft(res.json(), label).toMatchObject({ code: 'not_found' });
        if (refused.nonMember !== null) await call.intact?.();
      }
      // A member of A who is not an admin.
      {
        const call = await fixture(A, 'member', member);
        const { res, label } = await attempt('member', member, row, call);
        expect.soft(res.statusCode, label).toBe(refused.member ?? call.ok);
        if (refused.member === 403) {
          if (row.access === 'admin') expect.soft(res.json(), label).toMatchObject({ code: 'admin_required' });
          await call.intact?.();
        }
      }
      // A's admin.
      {
        const call = await fixture(A, 'admin', admin);
        const { res, label } = await attempt('admin', admin, row, call);
        expect.soft(res.statusCode, label).toBe(refused.admin ?? call.ok);
        if (refused.admin !== null) await call.intact?.();
      }
      // A platform super admin (who belongs to no organization).
      if ((row.access as Access) === 'superAdmin') {
        const call = await fixture(A, 'superAdmin', superAdmin);
        const { res, label } = await attempt('superAdmin', superAdmin, row, call);
        expect.soft(res.statusCode, label).toBe(call.ok);
      }
      // A's admin, A selected, naming B's rows (or B itself in the path).
      if (refused.otherOrganizationRow !== null) {
        const call = await fixture(B, 'crossAdmin', admin);
        const { res, label } = await attempt('crossAdmin', admin, row, call);
        expect.soft(res.statusCode, label).toBe(refused.otherOrganizationRow);
        expect.soft(res.json(), label).toMatchObject({ code: 'not_found' });
        await call.intact?.();
      }
    });
  }
});

describe('an API key', () => {
  // The key acts as a member of its organization (as its creator, A's admin) on the calls naming the
  // organization in x-organization-id, which it may leave out; every other signed-in call refuses it.
  for (const row of ROLE_TABLE) {
    if (!isLive(row) || row.access === 'public') continue;
    const key = liveKey(row);
    it(`${key}: ${row.access === 'recipient' || row.access === 'scim' ? '401' : row.organization === 'header' ? 'as a member' : '403 api_key_not_allowed'}`, async () => {
      const { apiKey } = await integrationsOf(A);
      const admin = callerOf(`${A.name} admin`, A.admin, A.adminAccount);
      const call = await FIXTURES[key](A, 'member', admin);
      const res = await (call.instance ?? t).app.inject({
        method: row.method,
        url: call.url,
        headers: { authorization: `Bearer ${apiKey}` },
        ...(call.body !== undefined ? { payload: call.body as object } : {}),
      });
      await call.cleanup?.();
      const label = `${key} with an API key → ${res.statusCode} ${res.body.slice(0, 200)}`;
      if (row.access === 'recipient' || row.access === 'scim') {
        // The recipient's page takes its own session only, SCIM its own token: a key is nobody there.
        expect.soft(res.statusCode, label).toBe(401);
        await call.intact?.();
      } else if (row.organization === 'header') {
        expect.soft(res.statusCode, label).toBe(refusals(row).member ?? call.ok);
        if (refusals(row).member === 403) await call.intact?.();
      } else {
        expect.soft(res.statusCode, label).toBe(403);
        expect.soft(res.json(), label).toMatchObject({ code: 'api_key_not_allowed' });
        await call.intact?.();
      }
    });
  }
});

describe('a SCIM token', () => {
  // SCIM's calls (decision 060) take the organization's bearer token: admitted with A's token,
  // and A's token naming B's rows answers 404 in SCIM's error JSON, leaving them as they were.
  for (const row of ROLE_TABLE) {
    if (!isLive(row) || row.access !== 'scim') continue;
    const key = liveKey(row);
    it(`${key}: admitted with the organization's token${'rowParam' in row ? ', 404 for another organization' : ''}`, async () => {
      const admin = callerOf(`${A.name} admin`, A.admin, A.adminAccount);
      const call = await FIXTURES[key](A, 'admin', admin);
      const res = await scimAs(A, row.method, call.url, call.body);
      expect.soft(res.statusCode, `${key} → ${res.body.slice(0, 200)}`).toBe(call.ok);
      if ('rowParam' in row) {
        const theirs = await FIXTURES[key](B, 'crossAdmin', admin);
        const refused = await scimAs(A, row.method, theirs.url, theirs.body);
        expect.soft(refused.statusCode, `${key} naming B's row → ${refused.body.slice(0, 200)}`).toBe(404);
        expect.soft(refused.json()).toMatchObject({ status: '404' });
        await theirs.intact?.();
      }
    });
  }
});

/** Everything of the organization the write calls could change, to compare before and after. */
async function stateOf(organizationId: string) {
  const strip = <R extends { updatedAt?: unknown }>(rows: R[]) =>
    rows.map(({ updatedAt: _u, ...rest }) => rest).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    mailItems: strip(await t.db.select().from(mailItems).where(eq(mailItems.organizationId, organizationId))),
    locations: strip(
      await t.db.select().from(mailroomLocations).where(eq(mailroomLocations.organizationId, organizationId)),
    ),
  };
}

/** The id of the other organization's row that a body field names. */
const OTHER_ROW: Record<string, (s: Side) => unknown> = {
  itemIds: (s) => [s.mailItemId],
  recipientId: (s) => s.recipientId,
  locationId: (s) => s.locationId,
  mailroomId: (s) => s.mailroomId,
  breakGlassUserId: (s) => s.adminAccount.userId,
};

describe('rows of another organization named in the body', () => {
  for (const row of ROLE_TABLE) {
    if (!isLive(row) || !('bodyRefs' in row)) continue;
    for (const field of row.bodyRefs) {
      it(`${routeKey(row)} with ${field} of another organization answers 404 and changes nothing`, async () => {
        const admin = callerOf(`${A.name} admin`, A.admin, A.adminAccount);
        const call = await FIXTURES[liveKey(row)](A, 'admin', admin);
        const body: Record<string, unknown> = { ...(call.body as object), [field]: OTHER_ROW[field]!(B) };
        // A mail item is stored either on a location or in a whole mailroom.
        if (field === 'mailroomId' && row.path.startsWith('/api/mail-items')) body.locationId = null;
        const before = await stateOf(A.organizationId);
        const beforeB = await stateOf(B.organizationId);
        const res = await send(admin, row.method, call.url, body, {}, call.instance);
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toMatchObject({ code: 'not_found' });
        expect(await stateOf(A.organizationId)).toEqual(before);
        expect(await stateOf(B.organizationId)).toEqual(beforeB);
      });
    }
  }
});

describe('refused callers are refused whatever they send', () => {
  /** The row's path with every parameter malformed, a query that fails validation, a body of junk. */
  const malformed = (row: RoleTableRow) => ({
    url: `${row.path.replace(/:[A-Za-z]+/g, 'not-an-id')}?limit=-1&offset=x&status=${'x'.repeat(300)}`,
    body: row.method === 'GET' || row.method === 'DELETE' ? undefined : { name: 42, email: ['x'], role: 'owner' },
  });

  for (const row of ROLE_TABLE) {
    if (!isLive(row) || row.access === 'public') continue;
    it(`${routeKey(row)}: 401 signed out${row.access === 'admin' && row.organization === 'header' ? ', 403 to a member' : ''}`, async () => {
      const { url, body } = malformed(row);
      const signedOut = await send({ label: 'signed out', organizationId: A.organizationId }, row.method, url, body);
      expect.soft(signedOut.statusCode, signedOut.body).toBe(401);
      expect
        .soft(signedOut.json())
        .toMatchObject(row.access === 'scim' ? { status: '401' } : { code: 'unauthenticated' });
      if (row.access === 'admin' && row.organization === 'header') {
        const member = callerOf(`${A.name} member`, A.memberClient, A.memberAccount);
        const res = await send(member, row.method, url, body);
        expect.soft(res.statusCode, res.body).toBe(403);
        expect.soft(res.json()).toMatchObject({ code: 'admin_required' });
      }
    });
  }
});

describe('the organization header', () => {
  for (const row of ROLE_TABLE) {
    if (!isLive(row) || row.organization !== 'header') continue;
    it(`${routeKey(row)}: missing answers 400, malformed or unknown 403`, async () => {
      const admin = callerOf(`${A.name} admin`, A.admin, A.adminAccount);
      for (const [organizationId, status, code] of [
        [undefined, 400, 'organization_required'],
        ['not-a-uuid', 403, 'not_a_member'],
        [crypto.randomUUID(), 403, 'not_a_member'],
      ] as const) {
        const call = await FIXTURES[liveKey(row)](A, 'admin', admin);
        const res = await send({ ...admin, organizationId }, row.method, call.url, call.body, {}, call.instance);
        expect.soft(res.statusCode, `${organizationId}: ${res.body}`).toBe(status);
        expect.soft(res.json(), `${organizationId}`).toMatchObject({ code });
        await call.intact?.();
      }
    });
  }
});

describe('lists never show another organization', () => {
  it('filters naming the rows of another organization find nothing', async () => {
    const admin = callerOf(`${A.name} admin`, A.admin, A.adminAccount);
    for (const url of [
      `/api/mail-items?recipientId=${B.recipientId}`,
      `/api/mail-items?locationId=${B.locationId}`,
      `/api/mailroom-locations?mailroomId=${B.mailroomId}`,
    ]) {
      const res = await send(admin, 'GET', url);
      expect.soft(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect.soft(res.json(), url).toEqual([]);
    }
  });

  it("an organization's lists hold only its own rows", async () => {
    const admin = callerOf(`${A.name} admin`, A.admin, A.adminAccount);
    for (const url of [
      '/api/mail-items',
      '/api/recipients',
      '/api/mailrooms',
      '/api/mailroom-locations',
      '/api/history?range=0',
    ]) {
      const rows = (await send(admin, 'GET', url)).json<Array<{ organizationId?: string }>>();
      expect.soft(rows.length, url).toBeGreaterThan(0);
      for (const r of rows) if ('organizationId' in r) expect.soft(r.organizationId, url).toBe(A.organizationId);
    }
    const mine = (await send(admin, 'GET', '/api/organizations')).json<Array<{ id: string }>>();
    expect(mine.map((o) => o.id)).toContain(A.organizationId);
    expect(mine.map((o) => o.id)).not.toContain(B.organizationId);
  });

  it("invitations and a deleted item's timeline stay within their organization", async () => {
    const admin = callerOf(`${A.name} admin`, A.admin, A.adminAccount);
    const theirs = await invitation(B, `invitee-${uid()}@example.com`);
    const listed = (await send(admin, 'GET', '/api/user-invitations')).json<Array<{ id: string }>>();
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.map((i) => i.id)).not.toContain(theirs.id);

    const [ours, other] = [await throwaway.mailItem(A), await throwaway.mailItem(B)];
    expect((await A.admin.delete(`/api/mail-items/${ours}`)).statusCode).toBe(204);
    expect((await B.admin.delete(`/api/mail-items/${other}`)).statusCode).toBe(204);
    const own = await send(admin, 'GET', `/api/mail-items/${ours}/history`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<unknown[]>().length).toBeGreaterThan(0);
    const foreign = await send(admin, 'GET', `/api/mail-items/${other}/history`);
    expect(foreign.statusCode, foreign.body).toBe(404);
  });

  it('an invitation sent to another email cannot be accepted', async () => {
    const { token } = await invitation(A, `someone-else-${uid()}@example.com`);
    const outsider = { ...callerOf(`${B.name} admin`, B.admin, B.adminAccount), organizationId: A.organizationId };
    const res = await send(outsider, 'POST', '/api/invitations/accept', { token });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'email_mismatch' });
    await memberAbsent(A.organizationId, B.adminAccount.userId);
    expect((await send(outsider, 'GET', '/api/mailrooms')).statusCode).toBe(403);
  });
});

describe('with caching on, role changes apply to the next request', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await createTestApp({ CACHE_TTL_MS: '60000' });
  });

  it('promotion, demotion, removal and joining by invitation', async () => {
    const admin = new Client(c);
    await admin.register();
    const org = await admin.createOrganization('Cached');
    const { client: member, userId } = await joinAs(c, org.id);
    const room = () => member.post('/api/mailrooms', { name: `Room ${uid()}` });

    expect((await room()).statusCode).toBe(403);
    expect((await admin.put(`/api/organizations/${org.id}/members/${userId}`, { role: 'admin' })).statusCode).toBe(200);
    expect((await room()).statusCode).toBe(201);
    expect((await admin.put(`/api/organizations/${org.id}/members/${userId}`, { role: 'member' })).statusCode).toBe(
      200,
    );
    expect((await room()).statusCode).toBe(403);
    expect((await member.get('/api/mailrooms')).statusCode).toBe(200);
    expect((await admin.delete(`/api/organizations/${org.id}/members/${userId}`)).statusCode).toBe(204);
    expect((await member.get('/api/mailrooms')).statusCode).toBe(403);
    expect((await member.get(`/api/organizations/${org.id}`)).statusCode).toBe(404);

    // Refused first (the refusal is looked up, maybe cached), then invited: in at once.
    const newcomer = new Client(c);
    const account = await newcomer.register();
    newcomer.organizationId = org.id;
    expect((await newcomer.get('/api/mailrooms')).statusCode).toBe(403);
    const token = newToken();
    await c.db.insert(userInvitations).values({
      organizationId: org.id,
      email: account.email,
      role: 'member',
      token: hashToken(token),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect((await newcomer.post('/api/invitations/accept', { token })).statusCode).toBe(200);
    expect((await newcomer.get('/api/mailrooms')).statusCode).toBe(200);
    expect((await newcomer.post('/api/mailrooms', { name: `Room ${uid()}` })).statusCode).toBe(403);
  });
});
