import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { hashToken, newToken } from './lib/tokens';
import { grantSuperAdmin } from './modules/super-admin/shell';
import { passwordResetRepository } from './modules/auth/password-reset.repository';
import {
  Client,
  createSecondInstance,
  createTestApp,
  deskWithRecipient,
  joinAs,
  TEST_SECRETS_KEY,
  type TestApp,
} from './test/harness';
import { handedOver } from './test/hand-over';

/**
 * Two app instances on one database, as behind a load balancer, both caching with the
 * production TTL: a change made through A is seen by the very next request on B (decision 037),
 * with nothing to wait for. B always serves (and so caches) the value first; A then changes it;
 * B is asked once, at once, and each case runs ROUNDS times, so a check that only passed when a
 * message happened to arrive first would fail here.
 */
const ROUNDS = 15;
/** What production runs with: CACHE_TTL_MS unset (named here so TEST_CACHE_TTL_MS cannot change it). */
const PRODUCTION_TTL_MS = loadConfig({ NODE_ENV: 'test', SECRETS_KEY: TEST_SECRETS_KEY }, process.cwd()).cacheTtlMs;

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp({ CACHE_TTL_MS: String(PRODUCTION_TTL_MS) });
  b = await createSecondInstance(a);
});

const onB = (client: Client) => client.on(b);

const organizationWithRecipient = () => deskWithRecipient(a);

describe('two instances on one database', () => {
  it('both cache, with the production TTL, and each has its own change feed', () => {
    expect(PRODUCTION_TTL_MS).toBeGreaterThan(0);
    expect(a.config.cacheTtlMs).toBe(PRODUCTION_TTL_MS);
    expect(b.config.cacheTtlMs).toBe(PRODUCTION_TTL_MS);
    expect(a.app.changeFeed.instanceId).not.toBe(b.app.changeFeed.instanceId);
  });

  it('a mail item logged on A is in the very next list, History and dashboard read on B, every time', async () => {
    const { admin, recipient } = await organizationWithRecipient();
    const desk = onB(admin);
    for (let n = 1; n <= ROUNDS; n += 1) {
      // B has the lists cached as they were…
      expect((await desk.get('/api/mail-items')).json()).toHaveLength(n - 1);
      expect((await desk.get('/api/dashboard/stats')).json().pendingPickups).toBe(n - 1);
      expect((await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id })).statusCode).toBe(
        201,
      );
      // …and the next request on B sees the item.
      const list = await desk.get('/api/mail-items');
      expect(list.json()).toHaveLength(n);
      expect(list.headers['x-total-count']).toBe(String(n));
      expect((await desk.get('/api/history')).json()).toHaveLength(n);
      expect((await desk.get('/api/dashboard/stats')).json()).toMatchObject({ todaysMail: n, pendingPickups: n });
    }
    expect(b.app.caches.mailItemLists.hits).toBeGreaterThan(0);
  });

  it('a status change on A shows in the next Pending Pickups read on B', async () => {
    const { admin, recipient } = await organizationWithRecipient();
    const desk = onB(admin);
    const pending = '/api/mail-items?status=pending,notified';
    const ids: string[] = [];
    for (let n = 0; n < ROUNDS; n += 1) {
      ids.push((await admin.post('/api/mail-items', { type: 'letter', recipientId: recipient.id })).json().id);
    }
    for (const [n, id] of ids.entries()) {
      expect((await desk.get(pending)).json()).toHaveLength(ROUNDS - n);
      await handedOver(admin, id, { collectorName: 'Ada' });
      expect((await desk.get(pending)).json()).toHaveLength(ROUNDS - n - 1);
    }
  });

  it("a recipient renamed on A shows in B's cached lists at once", async () => {
    const { admin, recipient } = await organizationWithRecipient();
    await admin.post('/api/mail-items', { type: 'letter', recipientId: recipient.id });
    const desk = onB(admin);
    let name = 'Ada';
    for (let n = 1; n <= ROUNDS; n += 1) {
      expect((await desk.get('/api/mail-items')).json()[0].recipient.firstName).toBe(name);
      name = `Augusta ${n}`;
      await admin.put(`/api/recipients/${recipient.id}`, { firstName: name });
      expect((await desk.get('/api/mail-items')).json()[0].recipient.firstName).toBe(name);
    }
  });

  it('dashboard trends on B count a recipient added on A at once', async () => {
    const { admin } = await organizationWithRecipient();
    const desk = onB(admin);
    for (let n = 1; n <= ROUNDS; n += 1) {
      expect((await desk.get('/api/dashboard/trends')).json().newRecipientsThisWeek).toBe(n);
      await admin.post('/api/recipients', { firstName: 'Grace', lastName: `Hopper ${n}` });
      expect((await desk.get('/api/dashboard/trends')).json().newRecipientsThisWeek).toBe(n + 1);
    }
  });

  it('settings changed on A apply to the next write on B', async () => {
    const { admin, org } = await organizationWithRecipient();
    const desk = onB(admin);
    for (let n = 0; n < ROUNDS; n += 1) {
      const type = `crate ${n}`;
      expect((await desk.post('/api/mail-items', { type })).statusCode).toBe(400);
      await admin.put(`/api/organization-settings/${org.id}`, { packageTypes: ['package', type] });
      expect((await desk.post('/api/mail-items', { type })).statusCode).toBe(201);
    }
  });

  it('B caches again once nothing changes: the same version is served from memory', async () => {
    const { admin, recipient } = await organizationWithRecipient();
    await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id });
    const desk = onB(admin);
    const query = `/api/mail-items?search=${crypto.randomUUID()}`;
    await desk.get(query);
    const before = b.app.caches.mailItemLists.hits;
    for (let n = 0; n < 5; n += 1) expect((await desk.get(query)).statusCode).toBe(200);
    expect(b.app.caches.mailItemLists.hits - before).toBe(5);
  });
});

describe('who may call, across two instances', () => {
  it('a sign-out on A makes the same cookie get 401 on B at once, every time', async () => {
    for (let n = 0; n < ROUNDS; n += 1) {
      const user = new Client(a);
      await user.register();
      const tab = onB(user);
      expect((await tab.get('/api/auth/user')).statusCode).toBe(200);
      expect((await user.post('/api/logout')).statusCode).toBeLessThan(300);
      expect((await tab.get('/api/auth/user')).statusCode).toBe(401);
    }
  });

  it('a member removed on A is refused on B at once', async () => {
    const { admin, org } = await organizationWithRecipient();
    for (let n = 0; n < 5; n += 1) {
      const { client: member, userId } = await joinAs(a, org.id);
      const memberOnB = onB(member);
      expect((await memberOnB.get('/api/dashboard/stats')).statusCode).toBe(200);
      expect((await memberOnB.get(`/api/organizations/${org.id}`)).statusCode).toBe(200);
      expect((await admin.delete(`/api/organizations/${org.id}/members/${userId}`)).statusCode).toBeLessThan(300);
      expect((await memberOnB.get('/api/dashboard/stats')).statusCode).toBe(403);
      expect((await memberOnB.get(`/api/organizations/${org.id}`)).statusCode).toBe(404);
    }
  });

  it('a role change on A takes effect on B at once, both ways', async () => {
    const { admin, org } = await organizationWithRecipient();
    const { client: other, userId } = await joinAs(a, org.id, 'admin');
    const otherOnB = onB(other);
    for (let n = 0; n < 5; n += 1) {
      expect((await otherOnB.get('/api/audit-log')).statusCode).toBe(200);
      expect((await admin.put(`/api/organizations/${org.id}/members/${userId}`, { role: 'member' })).statusCode).toBe(
        200,
      );
      expect((await otherOnB.get('/api/audit-log')).statusCode).toBe(403);
      expect((await admin.put(`/api/organizations/${org.id}/members/${userId}`, { role: 'admin' })).statusCode).toBe(
        200,
      );
    }
  });

  it('a password reset on A ends the session on B at once', async () => {
    const user = new Client(a);
    const account = await user.register();
    const tab = onB(user);
    expect((await tab.get('/api/auth/user')).statusCode).toBe(200);

    // The emailed link's token (how it is mailed is auth.test.ts's subject).
    const token = newToken();
    await passwordResetRepository.insert(a.db, account.user.id, hashToken(token), new Date(Date.now() + 60_000));
    const reset = await new Client(a).post('/api/reset-password', { token, password: 'a-new-password' });
    expect(reset.statusCode).toBeLessThan(300);

    expect((await tab.get('/api/auth/user')).statusCode).toBe(401);
  });

  it("the operator's shell command reaches the running instances' next request", async () => {
    const user = new Client(a);
    const account = await user.register();
    const tab = onB(user);
    expect((await tab.get('/api/auth/user')).json().isSuperAdmin).toBe(false);

    // `npm run admin -- grant-super-admin EMAIL` runs in a process of its own.
    expect(await grantSuperAdmin(a.db, account.email)).toBe('granted');

    expect((await tab.get('/api/auth/user')).json().isSuperAdmin).toBe(true);
  });
});

describe('when an instance stops hearing the others', () => {
  it('its caches stay correct: they never depended on hearing', async () => {
    const { admin, recipient } = await organizationWithRecipient();
    const desk = onB(admin);
    expect((await desk.get('/api/mail-items')).json()).toHaveLength(0);

    // The database ends B's listening connection (a restart, a failover, a pooler dropping it).
    const ended = await a.asOwner<{ ended: boolean }>(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
        where application_name = 'pigeonhole-change-feed:${b.app.changeFeed.instanceId}'`,
    );
    expect(ended).toEqual([{ ended: true }]);
    await expect.poll(() => b.app.changeFeed.listening, { timeout: 1_000, interval: 10 }).toBe(false);

    // A change B cannot hear of: its next read is fresh all the same, and its caches keep serving.
    await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id });
    expect((await desk.get('/api/mail-items')).json()).toHaveLength(1);
    expect((await desk.get('/api/dashboard/stats')).json().todaysMail).toBe(1);
    await admin.post('/api/mail-items', { type: 'letter', recipientId: recipient.id });
    expect((await desk.get('/api/dashboard/stats')).json().todaysMail).toBe(2);

    // The feed reconnects on its own (the live desk needs it).
    await expect.poll(() => b.app.changeFeed.listening, { timeout: 5_000, interval: 20 }).toBe(true);
  });
});
