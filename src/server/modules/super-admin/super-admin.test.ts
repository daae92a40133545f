import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUPER_ADMIN_MESSAGES, TOTAL_COUNT_HEADER } from '../../../contract';
import { auditLog, billingPayments, organizations, platformLog, users } from '../../db/schema';
import { Client, createTestApp, joinAs, type TestApp } from '../../test/harness';
import { signStripePayload, stripeEvent } from '../../test/stripe-server';
import * as rateLimiter from '../../lib/rate-limiter';
import { grantSuperAdmin, revokeSuperAdmin } from './shell';
import { logRepeatedSignInFailures, PLATFORM_LOG_QUOTAS } from '../audit/platform-events';

/**
 * The platform operator's console: stats from SQL, server-side search and paging, plan and status
 * changes that apply the plan table's limits, the flag that nobody revokes from themselves, and
 * the platform log. Run with the session cache on, as in production: a revoked flag must hold on
 * the next request.
 */

type Org = { id: string; name: string; planType: string; subscriptionStatus: string; memberCount: number };
type PlatformUser = { id: string; email: string; isSuperAdmin: boolean; organizations: Array<{ name: string }> };
type LogEntry = {
  kind: string;
  action: string;
  actor: { email: string } | null;
  targetLabel: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  details: Record<string, unknown> | null;
};

const WEBHOOK_SECRET = 'whsec_super_admin_test';
let t: TestApp;
let root: Client;
let rootAccount: Awaited<ReturnType<Client['register']>>;

beforeAll(async () => {
  t = await createTestApp({
    CACHE_TTL_MS: '60000',
    LOGIN_RATE_LIMIT_ACCOUNT: '3',
    STRIPE_SECRET_KEY: 'sk_test_super_admin',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    // Nothing in these tests reaches Stripe's API; only webhooks are verified.
    STRIPE_API_URL: 'http://127.0.0.1:9',
  });
  root = new Client(t);
  rootAccount = await root.register({ firstName: 'Rosa', lastName: 'Root' });
  expect(await grantSuperAdmin(t.db, rootAccount.email)).toBe('granted');
});

async function organizationWithAdmin(name: string) {
  const admin = new Client(t);
  const account = await admin.register();
  const org = await admin.createOrganization(name);
  return { admin, account, org };
}

const orgRow = async (id: string) => (await t.db.select().from(organizations).where(eq(organizations.id, id)))[0]!;
const logOf = async (action: string) =>
  (await root.get(`/api/super-admin/logs?search=${encodeURIComponent(action)}&limit=100`)).json<LogEntry[]>();

describe('who may call /api/super-admin/*', () => {
  it('answers 401 signed out and 403 to a regular user, an organization admin included, changing nothing', async () => {
    const { admin, org } = await organizationWithAdmin('Refusal Towers');
    const signedOut = new Client(t);
    for (const [method, url, body] of [
      ['GET', '/api/super-admin/stats', undefined],
      ['GET', '/api/super-admin/organizations', undefined],
      ['GET', '/api/super-admin/users', undefined],
      ['GET', '/api/super-admin/logs', undefined],
      ['PATCH', `/api/super-admin/organizations/${org.id}`, { planType: 'enterprise' }],
      ['PATCH', `/api/super-admin/users/${rootAccount.user.id}`, { isSuperAdmin: false }],
    ] as const) {
      expect((await signedOut.request(method, url, body)).statusCode, url).toBe(401);
      const refused = await admin.request(method, url, body);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual({ message: SUPER_ADMIN_MESSAGES.forbidden, code: 'super_admin_required' });
    }
    expect((await orgRow(org.id)).planType).toBe('trial');
    const [me] = await t.db.select().from(users).where(eq(users.id, rootAccount.user.id));
    expect(me!.isSuperAdmin).toBe(true);
  });

  it('gives a super admin no way into an organization of which they are not a member', async () => {
    const { org } = await organizationWithAdmin('Private Lofts');
    root.organizationId = org.id;
    try {
      const res = await root.get('/api/mail-items');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'not_a_member' });
      expect((await root.get(`/api/organizations/${org.id}`)).statusCode).toBe(404);
    } finally {
      root.organizationId = undefined;
    }
  });
});

describe('GET /api/super-admin/stats', () => {
  it('counts organizations, users, live trials, paid plans, this month’s packages and revenue in SQL', async () => {
    // Caches off here, so each read is the SQL's answer: the figures are otherwise reused 30 s
    // (PLATFORM_STATS_TTL_MS), and this test's direct writes to plans and payments tell no cache.
    const fresh = await createTestApp({ CACHE_TTL_MS: '0' });
    const operator = new Client(fresh);
    const operatorAccount = await operator.register();
    await grantSuperAdmin(fresh.db, operatorAccount.email);
    const organizationWithAdmin = async (name: string) => {
      const admin = new Client(fresh);
      await admin.register();
      return { admin, org: await admin.createOrganization(name) };
    };
    type Stats = Record<
      'totalOrganizations' | 'totalUsers' | 'activeTrials' | 'paidSubscriptions' | 'totalPackagesThisMonth' | 'revenue',
      number
    >;
    const before = (await operator.get('/api/super-admin/stats')).json<Stats>();

    const live = await organizationWithAdmin('Stats Live Trial');
    await live.admin.post('/api/mail-items', { type: 'letter' });
    await live.admin.post('/api/mail-items', { type: 'package' });
    const ended = await organizationWithAdmin('Stats Ended Trial');
    await fresh.db
      .update(organizations)
      .set({ trialEndDate: new Date(Date.now() - 3_600_000) })
      .where(eq(organizations.id, ended.org.id));
    const paid = await organizationWithAdmin('Stats Paid');
    await fresh.db
      .update(organizations)
      .set({ planType: 'professional', subscriptionStatus: 'active' })
      .where(eq(organizations.id, paid.org.id));
    await fresh.db.insert(billingPayments).values([
      {
        organizationId: paid.org.id,
        provider: 'stripe',
        providerRef: `p1-${paid.org.id}`,
        status: 'paid',
        amount: 17500,
        currency: 'usd',
        description: 'Professional plan, 5 users',
      },
      {
        // The demo provider charged nobody: not revenue (issue 24).
        organizationId: paid.org.id,
        provider: 'demo',
        providerRef: `p3-${paid.org.id}`,
        status: 'paid',
        amount: 4_500_000,
        currency: 'usd',
        description: 'Enterprise plan, 1000 users, one month (demo payment)',
      },
      {
        organizationId: paid.org.id,
        provider: 'demo',
        providerRef: `p2-${paid.org.id}`,
        status: 'failed',
        amount: 9900,
        currency: 'usd',
        description: 'Subscription payment',
      },
    ]);

    const res = await operator.get('/api/super-admin/stats');
    expect(res.statusCode).toBe(200);
    const after = res.json<Stats>();
    expect(after.totalOrganizations - before.totalOrganizations).toBe(3);
    expect(after.totalUsers - before.totalUsers).toBe(3);
    expect(after.activeTrials - before.activeTrials).toBe(1);
    expect(after.paidSubscriptions - before.paidSubscriptions).toBe(1);
    expect(after.totalPackagesThisMonth - before.totalPackagesThisMonth).toBe(2);
    // Only money that moved counts (paid, not through the demo provider), in dollars.
    expect(after.revenue - before.revenue).toBe(175);
  });

  it('reuses the figures for 30 s with caches on, until an operator changes a plan', async () => {
    const first = (await root.get('/api/super-admin/stats')).json<{ totalOrganizations: number }>();
    const { org } = await organizationWithAdmin('Stats Cached Court');
    expect((await root.get('/api/super-admin/stats')).json()).toEqual(first);
    await root.patch(`/api/super-admin/organizations/${org.id}`, { planType: 'starter' });
    const after = (await root.get('/api/super-admin/stats')).json<{ totalOrganizations: number }>();
    expect(after.totalOrganizations).toBe(first.totalOrganizations + 1);
  });
});

describe('GET /api/super-admin/organizations', () => {
  it('pages newest first with the total, and searches name or domain case-insensitively on the server', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const made = [];
    for (const n of [1, 2, 3]) made.push(await organizationWithAdmin(`Search ${tag} Tower ${n}`));
    await t.db
      .update(organizations)
      .set({ emailDomain: `${tag}-mail.example` })
      .where(eq(organizations.id, made[0]!.org.id));
    await joinAs(t, made[2]!.org.id);

    const page1 = await root.get(`/api/super-admin/organizations?search=${tag.toUpperCase()}&limit=2`);
    expect(page1.statusCode).toBe(200);
    expect(page1.headers[TOTAL_COUNT_HEADER]).toBe('3');
    const first = page1.json<Org[]>();
    expect(first.map((o) => o.name)).toEqual([`Search ${tag} Tower 3`, `Search ${tag} Tower 2`]);
    expect(first[0]).toMatchObject({ planType: 'trial', subscriptionStatus: 'trial', memberCount: 2, packageCount: 0 });
    expect(first[0]).toHaveProperty('trialEndsAt');
    const page2 = (await root.get(`/api/super-admin/organizations?search=${tag}&limit=2&offset=2`)).json<Org[]>();
    expect(page2.map((o) => o.name)).toEqual([`Search ${tag} Tower 1`]);

    // By domain only.
    const byDomain = await root.get(`/api/super-admin/organizations?search=${tag}-MAIL`);
    expect(byDomain.json<Org[]>().map((o) => o.id)).toEqual([made[0]!.org.id]);
    // LIKE wildcards are literal.
    const wild = await root.get(`/api/super-admin/organizations?search=${encodeURIComponent('%_%')}`);
    expect(wild.headers[TOTAL_COUNT_HEADER]).toBe('0');
  });

  it('answers 400 for a bad page', async () => {
    for (const q of ['limit=0', 'limit=101', 'offset=-1', `search=${'x'.repeat(201)}`]) {
      expect((await root.get(`/api/super-admin/organizations?${q}`)).statusCode, q).toBe(400);
    }
  });
});

describe('PATCH /api/super-admin/organizations/:orgId', () => {
  it('sets a plan with its limits, audited in the organization’s log and the platform log', async () => {
    const { admin, org } = await organizationWithAdmin('Plan Change Plaza');
    const res = await root.patch(`/api/super-admin/organizations/${org.id}`, { planType: 'enterprise' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: org.id, planType: 'enterprise', maxUsers: 10, maxPackagesPerMonth: -1 });
    const row = await orgRow(org.id);
    expect([row.planType, row.maxUsers, row.maxPackagesPerMonth]).toEqual(['enterprise', 10, -1]);

    // Starter keeps the seats within its bounds (10 → 3) and brings its monthly cap.
    const starter = await root.patch(`/api/super-admin/organizations/${org.id}`, { planType: 'starter' });
    expect(starter.json()).toMatchObject({ planType: 'starter', maxUsers: 3, maxPackagesPerMonth: 1000 });

    const status = await root.patch(`/api/super-admin/organizations/${org.id}`, { subscriptionStatus: 'cancelled' });
    expect(status.json()).toMatchObject({ planType: 'starter', subscriptionStatus: 'cancelled' });
    // A cancelled plan stops new mail (the write block of billing), reads stay open.
    expect((await admin.post('/api/mail-items', { type: 'letter' })).statusCode).toBe(402);
    expect((await admin.get('/api/mail-items')).statusCode).toBe(200);

    const orgAudit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, org.id), eq(auditLog.action, 'billing.plan_changed')));
    expect(orgAudit).toHaveLength(3);
    expect(orgAudit.every((e) => e.actorId === rootAccount.user.id)).toBe(true);

    const entries = (await logOf('Plan Change Plaza')).filter((e) => e.action === 'organization.updated');
    expect(entries.map((e) => [e.before, e.after])).toEqual([
      [{ subscriptionStatus: 'trial' }, { subscriptionStatus: 'cancelled' }],
      [
        { planType: 'enterprise', maxUsers: 10, maxPackagesPerMonth: -1 },
        { planType: 'starter', maxUsers: 3, maxPackagesPerMonth: 1000 },
      ],
      [
        { planType: 'trial', maxUsers: 5, maxPackagesPerMonth: 500 },
        { planType: 'enterprise', maxUsers: 10, maxPackagesPerMonth: -1 },
      ],
    ]);
    expect(entries[0]).toMatchObject({ kind: 'super_admin', actor: { email: rootAccount.email } });
  });

  it('answers 400 for unknown values or an empty change, 404 for an unknown id, changing nothing', async () => {
    const { org } = await organizationWithAdmin('Bad Input Court');
    const before = await orgRow(org.id);
    for (const body of [
      { planType: 'platinum' },
      { subscriptionStatus: 'paused' },
      {},
      { planType: 'starter', maxUsers: 1000 },
      { planType: 'starter\u0000' },
    ]) {
      const res = await root.patch(`/api/super-admin/organizations/${org.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await root.patch(`/api/super-admin/organizations/${org.id}`, { planType: 'platinum' })).json(),
    ).toMatchObject({
      message: expect.stringContaining('Unknown plan type'),
    });
    const unknown = await root.patch('/api/super-admin/organizations/00000000-0000-4000-8000-000000000000', {
      planType: 'starter',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: SUPER_ADMIN_MESSAGES.organizationNotFound });
    expect((await root.patch('/api/super-admin/organizations/not-an-id', { planType: 'starter' })).statusCode).toBe(
      400,
    );
    expect(await orgRow(org.id)).toEqual(before);
  });
});

describe('GET /api/super-admin/users and PATCH /api/super-admin/users/:userId', () => {
  it('searches email, username or full name, with each user’s organizations', async () => {
    const tag = `uq${Date.now().toString(36)}`;
    const c = new Client(t);
    const account = await c.register({ firstName: 'Imogen', lastName: `Quill${tag}` });
    await c.createOrganization(`Quill ${tag} House`);
    for (const search of [`imogen quill${tag}`, account.email.toUpperCase(), account.username]) {
      const res = await root.get(`/api/super-admin/users?search=${encodeURIComponent(search)}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers[TOTAL_COUNT_HEADER], search).toBe('1');
      const [found] = res.json<PlatformUser[]>();
      expect(found).toMatchObject({ email: account.email, isSuperAdmin: false });
      expect(found!.organizations.map((o) => o.name)).toEqual([`Quill ${tag} House`]);
    }
  });

  it('grants the flag (the console opens for them at once) and revokes it (refused on the next request)', async () => {
    const other = new Client(t);
    const account = await other.register();
    // Their session is cached now, with the flag false.
    expect((await other.get('/api/auth/user')).json().isSuperAdmin).toBe(false);

    const granted = await root.patch(`/api/super-admin/users/${account.user.id}`, { isSuperAdmin: true });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ id: account.user.id, isSuperAdmin: true });
    expect((await other.get('/api/super-admin/stats')).statusCode).toBe(200);
    expect((await other.get('/api/auth/user')).json().isSuperAdmin).toBe(true);

    const revoked = await other.patch(`/api/super-admin/users/${rootAccount.user.id}`, { isSuperAdmin: false });
    expect(revoked.json()).toMatchObject({ isSuperAdmin: false });
    expect((await root.get('/api/super-admin/stats')).statusCode).toBe(403);
    // Put the flag back for the other tests, through the other super admin.
    expect(
      (await other.patch(`/api/super-admin/users/${rootAccount.user.id}`, { isSuperAdmin: true })).statusCode,
    ).toBe(200);

    const entries = (await logOf(account.email)).filter((e) => e.targetLabel === account.email);
    expect(entries.map((e) => [e.action, e.actor?.email])).toEqual([['user.super_admin_granted', rootAccount.email]]);
    const revokes = await logOf('user.super_admin_revoked');
    expect(revokes[0]).toMatchObject({
      actor: { email: account.email },
      targetLabel: rootAccount.email,
      before: { isSuperAdmin: true },
      after: { isSuperAdmin: false },
    });
  });

  it('refuses to revoke one’s own flag (400), so the platform keeps a super admin', async () => {
    const res = await root.patch(`/api/super-admin/users/${rootAccount.user.id}`, { isSuperAdmin: false });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: SUPER_ADMIN_MESSAGES.selfRevoke, code: 'self_revoke' });
    expect((await root.get('/api/super-admin/stats')).statusCode).toBe(200);
  });

  it('answers 400 for a body that is not a boolean, 404 for an unknown user', async () => {
    for (const body of [{ isSuperAdmin: 'yes' }, {}, { isSuperAdmin: true, email: 'x@y.z' }]) {
      expect((await root.patch(`/api/super-admin/users/${rootAccount.user.id}`, body)).statusCode).toBe(400);
    }
    const res = await root.patch('/api/super-admin/users/00000000-0000-4000-8000-000000000000', { isSuperAdmin: true });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: SUPER_ADMIN_MESSAGES.userNotFound });
  });
});

describe('GET /api/super-admin/logs', () => {
  it('records repeated failed sign-ins once per window, for the account and never the password', async () => {
    const victim = new Client(t);
    const account = await victim.register();
    const attacker = new Client(t);
    for (let i = 0; i < 6; i++) {
      await attacker.post('/api/login', { username: account.username, password: `wrong-guess-${i}` });
    }
    const entries = (await root.get('/api/super-admin/logs?kind=sign_in&limit=100')).json<LogEntry[]>();
    const mine = entries.filter((e) => e.targetLabel === account.username.toLowerCase());
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      action: 'sign_in.repeated_failures',
      actor: null,
      details: { scope: 'account', attempts: 3 },
    });
    expect(JSON.stringify(mine[0])).not.toContain('wrong-guess');
  });

  it('records refused payment webhooks: bad signature, unknown customer', async () => {
    const anyone = new Client(t);
    const payload = JSON.stringify(
      stripeEvent('invoice.paid', { id: 'in_unknown', object: 'invoice', customer: 'cus_nobody' }),
    );
    const forged = await anyone.post('/api/webhooks/stripe', payload, {
      'content-type': 'application/json',
      'stripe-signature': signStripePayload(payload, 'whsec_wrong'),
    });
    expect(forged.statusCode).toBe(400);
    const unknown = await anyone.post('/api/webhooks/stripe', payload, {
      'content-type': 'application/json',
      'stripe-signature': signStripePayload(payload, WEBHOOK_SECRET),
    });
    expect(unknown.statusCode).toBe(400);

    const res = await root.get('/api/super-admin/logs?kind=webhook');
    expect(res.statusCode).toBe(200);
    const entries = res.json<LogEntry[]>();
    expect(entries.slice(0, 2).map((e) => e.details?.code)).toEqual(['unknown_customer', 'invalid_signature']);
    expect(entries[0]).toMatchObject({ kind: 'webhook', action: 'webhook.stripe_failed', targetLabel: 'stripe' });
  });

  it('filters by kind, searches, pages newest first, and refuses an unknown kind', async () => {
    const all = await root.get('/api/super-admin/logs?limit=100');
    const total = Number(all.headers[TOTAL_COUNT_HEADER]);
    expect(total).toBeGreaterThan(3);
    const kinds = new Set(all.json<LogEntry[]>().map((e) => e.kind));
    expect([...kinds].sort()).toEqual(['sign_in', 'super_admin', 'webhook']);
    const one = await root.get('/api/super-admin/logs?limit=1&offset=1');
    expect(one.json<LogEntry[]>()).toEqual([all.json<LogEntry[]>()[1]]);
    const rows = await t.db
      .select({ kind: platformLog.kind })
      .from(platformLog)
      .where(eq(platformLog.kind, 'super_admin'));
    expect((await root.get('/api/super-admin/logs?kind=super_admin')).headers[TOTAL_COUNT_HEADER]).toBe(
      String(rows.length),
    );
    expect((await root.get('/api/super-admin/logs?kind=billing')).statusCode).toBe(400);
  });

  it('keeps its quota per source: a flood of forged webhook posts hides neither a refused signed event nor a refused sign-in', async () => {
    const quota = PLATFORM_LOG_QUOTAS['webhook:stripe:unverified'];
    const anyone = new Client(t);
    const forgedEntries = async () =>
      (
        await t.db
          .select({ details: platformLog.details })
          .from(platformLog)
          .where(and(eq(platformLog.kind, 'webhook'), sql`${platformLog.details}->>'code' = 'invalid_signature'`))
          .orderBy(asc(platformLog.seq))
      ).map((e) => e.details);
    const before = (await forgedEntries()).length;
    // Anonymous posts with a bad signature, well past the hour's quota (as the probe sent them).
    const payload = JSON.stringify(
      stripeEvent('invoice.paid', { id: 'in_flood', object: 'invoice', customer: 'cus_x' }),
    );
    for (let i = 0; i < quota + 5 - before; i++) {
      const res = await anyone.post('/api/webhooks/stripe', payload, {
        'content-type': 'application/json',
        'stripe-signature': signStripePayload(payload, 'whsec_forged'),
      });
      expect(res.statusCode).toBe(400);
    }
    // A real refusal of another source is still recorded: an event Stripe signed for a customer we do not know...
    const signed = JSON.stringify(
      stripeEvent('invoice.paid', { id: 'in_after_flood', object: 'invoice', customer: 'cus_after_flood' }),
    );
    const refused = await anyone.post('/api/webhooks/stripe', signed, {
      'content-type': 'application/json',
      'stripe-signature': signStripePayload(signed, WEBHOOK_SECRET),
    });
    expect(refused.statusCode).toBe(400);
    const webhooks = (await root.get('/api/super-admin/logs?kind=webhook')).json<LogEntry[]>();
    expect(webhooks[0]).toMatchObject({
      action: 'webhook.stripe_failed',
      details: { code: 'unknown_customer', eventType: 'invoice.paid' },
    });
    expect(webhooks[0]!.details).not.toHaveProperty('quotaReached');

    // ...and so is a sign-in guessed at.
    const victim = new Client(t);
    const account = await victim.register();
    for (let i = 0; i < 4; i++) {
      await anyone.post('/api/login', { username: account.username, password: `flood-guess-${i}` });
    }
    const signIns = (await logOf(account.username.toLowerCase())).filter((e) => e.kind === 'sign_in');
    expect(signIns).toHaveLength(1);
    expect(signIns[0]).toMatchObject({ action: 'sign_in.repeated_failures', details: { scope: 'account' } });
    // Their own trail stops at the quota, and its last entry says so.
    const forged = await forgedEntries();
    expect(forged).toHaveLength(quota);
    expect(forged.at(-1)).toMatchObject({ quotaReached: true, quotaPerHour: quota });
    expect(forged.slice(0, -1).some((d) => d?.quotaReached)).toBe(false);

    await rateLimiter.reset(t.db, 'platform-log:webhook:stripe:unverified');
  });

  it('bounds each source: refused sign-ins stop at their own quota, marked, and leave webhook refusals alone', async () => {
    const quota = PLATFORM_LOG_QUOTAS['sign_in:account'];
    await rateLimiter.reset(t.db, 'platform-log:sign_in:account');
    try {
      for (let i = 0; i < quota + 3; i++) {
        await logRepeatedSignInFailures(t.db, {
          scope: 'account',
          login: `bounded-${i}@example.com`,
          ip: '203.0.113.7',
          attempts: 3,
          windowSeconds: 900,
        });
      }
      const rows = await t.db
        .select({ label: platformLog.targetLabel, details: platformLog.details })
        .from(platformLog)
        .where(sql`${platformLog.targetLabel} like 'bounded-%'`)
        .orderBy(asc(platformLog.seq));
      expect(rows).toHaveLength(quota);
      expect(rows.at(-1)).toMatchObject({ label: `bounded-${quota - 1}@example.com`, details: { quotaReached: true } });
      // Webhook refusals have their own quota.
      const payload = JSON.stringify(stripeEvent('invoice.paid', { id: 'in_q', object: 'invoice', customer: 'cus_q' }));
      await new Client(t).post('/api/webhooks/stripe', payload, {
        'content-type': 'application/json',
        'stripe-signature': signStripePayload(payload, 'whsec_forged'),
      });
      const [newest] = (await root.get('/api/super-admin/logs?kind=webhook&limit=1')).json<LogEntry[]>();
      expect(newest).toMatchObject({ details: { code: 'invalid_signature' } });
    } finally {
      await rateLimiter.reset(t.db, 'platform-log:sign_in:account');
    }
  });
});

describe('npm run admin -- revoke-super-admin', () => {
  it('revokes the flag from another super admin, but never from the last one', async () => {
    const c = new Client(t);
    const account = await c.register();
    expect(await revokeSuperAdmin(t.db, account.email)).toBe('not_super_admin');
    expect(await grantSuperAdmin(t.db, account.email)).toBe('granted');
    expect(await revokeSuperAdmin(t.db, account.email.toUpperCase())).toBe('revoked');
    expect(await revokeSuperAdmin(t.db, 'nobody@example.com')).toBe('no_such_user');
    const entries = await logOf(account.email);
    expect(entries.map((e) => [e.action, e.actor, e.details])).toEqual([
      ['user.super_admin_revoked', null, { via: 'shell' }],
      ['user.super_admin_granted', null, { via: 'shell' }],
    ]);

    // Only the root and whoever the earlier tests left: revoke all but root, then root is the last.
    const others = await t.db.select({ email: users.email }).from(users).where(eq(users.isSuperAdmin, true));
    for (const { email } of others.filter((u) => u.email !== rootAccount.email)) await revokeSuperAdmin(t.db, email);
    expect(await revokeSuperAdmin(t.db, rootAccount.email)).toBe('last_super_admin');
    expect((await root.get('/api/super-admin/stats')).statusCode).toBe(200);
  });
});
