import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { hashToken, newToken } from './lib/tokens';
import { grantSuperAdmin } from './modules/super-admin/shell';
import { passwordResetRepository } from './modules/auth/password-reset.repository';
import { Client, createSecondInstance, createTestApp, joinAs, TEST_SECRETS_KEY, type TestApp } from './test/harness';

/**
 * Two app instances on one database, as behind a load balancer, both caching with the
 * production TTL: a change made through A is seen by the next request on B (decision 018).
 *
 * B always serves (and so caches) the value first; A then changes it. Each check polls B for at
 * most PROPAGATION_MS, well inside the TTL: without the change feed B would keep answering from
 * its cache for the whole poll, so an expiring entry cannot make these tests pass.
 */
const PROPAGATION_MS = 1_000;
const poll = { timeout: PROPAGATION_MS, interval: 10 };
/** What production runs with: CACHE_TTL_MS unset (named here so TEST_CACHE_TTL_MS cannot change it). */
const PRODUCTION_TTL_MS = loadConfig({ NODE_ENV: 'test', SECRETS_KEY: TEST_SECRETS_KEY }, process.cwd()).cacheTtlMs;

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp({ CACHE_TTL_MS: String(PRODUCTION_TTL_MS) });
  b = await createSecondInstance(a);
});

/** The same browser tab (cookie, organization) talking to the other instance. */
function onB(client: Client) {
  const other = new Client(b);
  other.cookie = client.cookie;
  other.organizationId = client.organizationId;
  return other;
}

async function organizationWithRecipient() {
  const admin = new Client(a);
  await admin.register();
  const org = await admin.createOrganization();
  const recipient = (await admin.post('/api/recipients', { firstName: 'Ada', lastName: 'Byron' })).json<{
    id: string;
  }>();
  return { admin, org, recipient };
}

describe('two instances on one database', () => {
  it('both cache, with the production TTL and separate change feeds that listen', () => {
    expect(PRODUCTION_TTL_MS).toBeGreaterThan(PROPAGATION_MS);
    expect(a.config.cacheTtlMs).toBe(PRODUCTION_TTL_MS);
    expect(b.config.cacheTtlMs).toBe(PRODUCTION_TTL_MS);
    expect(a.app.changeFeed.instanceId).not.toBe(b.app.changeFeed.instanceId);
    expect(a.app.changeFeed.listening && b.app.changeFeed.listening).toBe(true);
  });

  it('a mail item logged on A is in the next mail-item list read on B', async () => {
    const { admin, recipient } = await organizationWithRecipient();
    const desk = onB(admin);
    const before = await desk.get('/api/mail-items');
    expect(before.json()).toHaveLength(0);
    expect((await desk.get('/api/history')).json()).toHaveLength(0);

    expect((await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id })).statusCode).toBe(201);

    await expect.poll(async () => (await desk.get('/api/mail-items')).json<unknown[]>().length, poll).toBe(1);
    expect((await desk.get('/api/mail-items')).headers['x-total-count']).toBe('1');
    expect((await desk.get('/api/history')).json()).toHaveLength(1);
  });

  it("a recipient renamed on A shows in B's cached lists", async () => {
    const { admin, recipient } = await organizationWithRecipient();
    await admin.post('/api/mail-items', { type: 'letter', recipientId: recipient.id });
    const desk = onB(admin);
    expect((await desk.get('/api/mail-items')).json()[0].recipient.firstName).toBe('Ada');

    await admin.put(`/api/recipients/${recipient.id}`, { firstName: 'Augusta' });

    await expect
      .poll(async () => (await desk.get('/api/mail-items')).json()[0].recipient.firstName, poll)
      .toBe('Augusta');
  });

  it('dashboard stats on B count an item logged on A', async () => {
    const { admin, recipient } = await organizationWithRecipient();
    const desk = onB(admin);
    expect((await desk.get('/api/dashboard/stats')).json()).toMatchObject({ todaysMail: 0, pendingPickups: 0 });

    await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id });

    await expect
      .poll(async () => (await desk.get('/api/dashboard/stats')).json(), poll)
      .toMatchObject({ todaysMail: 1, pendingPickups: 1 });
  });

  it('dashboard trends on B count a recipient added on A', async () => {
    const { admin } = await organizationWithRecipient();
    const desk = onB(admin);
    expect((await desk.get('/api/dashboard/trends')).json().newRecipientsThisWeek).toBe(1);

    await admin.post('/api/recipients', { firstName: 'Grace', lastName: 'Hopper' });

    await expect.poll(async () => (await desk.get('/api/dashboard/trends')).json().newRecipientsThisWeek, poll).toBe(2);
  });

  it('settings changed on A apply to the next write on B', async () => {
    const { admin, org } = await organizationWithRecipient();
    const desk = onB(admin);
    expect((await desk.post('/api/mail-items', { type: 'pallet' })).statusCode).toBe(400);

    await admin.put(`/api/organization-settings/${org.id}`, { packageTypes: ['package', 'pallet'] });

    await expect.poll(async () => (await desk.post('/api/mail-items', { type: 'pallet' })).statusCode, poll).toBe(201);
  });
});

describe('who may call, across two instances', () => {
  it('a sign-out on A makes the same cookie get 401 on B', async () => {
    const user = new Client(a);
    await user.register();
    const tab = onB(user);
    expect((await tab.get('/api/auth/user')).statusCode).toBe(200);

    expect((await user.post('/api/logout')).statusCode).toBeLessThan(300);

    await expect.poll(async () => (await tab.get('/api/auth/user')).statusCode, poll).toBe(401);
  });

  it('a member removed on A is refused on B', async () => {
    const { admin, org } = await organizationWithRecipient();
    const { client: member, userId } = await joinAs(a, org.id);
    const memberOnB = onB(member);
    expect((await memberOnB.get('/api/dashboard/stats')).statusCode).toBe(200);
    expect((await memberOnB.get(`/api/organizations/${org.id}`)).statusCode).toBe(200);

    expect((await admin.delete(`/api/organizations/${org.id}/members/${userId}`)).statusCode).toBeLessThan(300);

    await expect.poll(async () => (await memberOnB.get('/api/dashboard/stats')).statusCode, poll).toBe(403);
    expect((await memberOnB.get(`/api/organizations/${org.id}`)).statusCode).toBe(404);
  });

  it('a role change on A takes effect on B', async () => {
    const { admin, org } = await organizationWithRecipient();
    const { client: other, userId } = await joinAs(a, org.id, 'admin');
    const otherOnB = onB(other);
    expect((await otherOnB.get('/api/audit-log')).statusCode).toBe(200);

    const demoted = await admin.put(`/api/organizations/${org.id}/members/${userId}`, { role: 'member' });
    expect(demoted.statusCode).toBe(200);

    await expect.poll(async () => (await otherOnB.get('/api/audit-log')).statusCode, poll).toBe(403);
  });

  it('a password reset on A ends the session on B', async () => {
    const user = new Client(a);
    const account = await user.register();
    const tab = onB(user);
    expect((await tab.get('/api/auth/user')).statusCode).toBe(200);

    // The emailed link's token (how it is mailed is auth.test.ts's subject).
    const token = newToken();
    await passwordResetRepository.insert(a.db, account.user.id, hashToken(token), new Date(Date.now() + 60_000));
    const reset = await new Client(a).post('/api/reset-password', { token, password: 'a-new-password' });
    expect(reset.statusCode).toBeLessThan(300);

    await expect.poll(async () => (await tab.get('/api/auth/user')).statusCode, poll).toBe(401);
  });

  it("the operator's shell command reaches the running instances' cached sessions", async () => {
    const user = new Client(a);
    const account = await user.register();
    const tab = onB(user);
    expect((await tab.get('/api/auth/user')).json().isSuperAdmin).toBe(false);

    // `npm run admin -- grant-super-admin EMAIL` runs in a process of its own.
    expect(await grantSuperAdmin(a.db, account.email)).toBe('granted');

    await expect.poll(async () => (await tab.get('/api/auth/user')).json().isSuperAdmin, poll).toBe(true);
  });
});

describe('when an instance stops hearing the others', () => {
  it('serves nothing from its caches until it listens again, then reconnects on its own', async () => {
    const { admin, recipient } = await organizationWithRecipient();
    const desk = onB(admin);
    expect((await desk.get('/api/mail-items')).json()).toHaveLength(0);

    // The database ends B's listening connection (a restart, a failover, a pooler dropping it).
    const ended = await a.asOwner<{ ended: boolean }>(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
        where application_name = 'pigeonhole-change-feed:${b.app.changeFeed.instanceId}'`,
    );
    expect(ended).toEqual([{ ended: true }]);
    await expect.poll(() => b.app.changeFeed.listening, poll).toBe(false);

    // A change B cannot hear of: its next read is fresh all the same.
    await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id });
    expect((await desk.get('/api/mail-items')).json()).toHaveLength(1);

    await expect.poll(() => b.app.changeFeed.listening, { timeout: 5_000, interval: 20 }).toBe(true);
    // Listening again, B caches and hears A as before.
    expect((await desk.get('/api/dashboard/stats')).json().todaysMail).toBe(1);
    await admin.post('/api/mail-items', { type: 'letter', recipientId: recipient.id });
    await expect.poll(async () => (await desk.get('/api/dashboard/stats')).json().todaysMail, poll).toBe(2);
  });
});
