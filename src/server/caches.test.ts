import { beforeAll, describe, expect, it } from 'vitest';
import { mailItems } from './db/schema';
import { VersionedCache } from './lib/versioned-cache';
import { Client, createTestApp, joinAs, type TestApp } from './test/harness';

/**
 * With caching on (a long TTL, so an expiry cannot pass these), this instance's own writes must
 * take effect on the very next request. Other instances: caches-across-instances.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ CACHE_TTL_MS: '60000' });
});

describe('who may call is read on every request, with caching on', () => {
  it('logout ends the session at once', async () => {
    const c = new Client(t);
    await c.register();
    const cookie = c.cookie!;
    expect((await c.get('/api/auth/user')).statusCode).toBe(200);
    await c.post('/api/logout');
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
    expect(res.statusCode).toBe(401);
  });

  it('a name change shows on the next read, and a password change signs other devices out', async () => {
    const c = new Client(t);
    const account = await c.register();
    const other = new Client(t);
    await other.post('/api/login', { username: account.email, password: account.password });
    expect((await other.get('/api/auth/user')).statusCode).toBe(200);
    await c.patch('/api/auth/user', { firstName: 'Renamed', lastName: 'Person' });
    expect((await c.get('/api/auth/user')).json().firstName).toBe('Renamed');
    await c.post('/api/change-password', { currentPassword: account.password, newPassword: 'another-secret' });
    expect((await other.get('/api/auth/user')).statusCode).toBe(401);
    expect((await c.get('/api/auth/user')).statusCode).toBe(200);
  });

  it('a removed member is refused on the next request', async () => {
    const admin = new Client(t);
    await admin.register();
    const org = await admin.createOrganization();
    const { client: member, userId } = await joinAs(t, org.id);
    expect((await member.get('/api/dashboard/stats')).statusCode).toBe(200);
    expect((await member.get(`/api/organizations/${org.id}`)).statusCode).toBe(200);
    await admin.delete(`/api/organizations/${org.id}/members/${userId}`);
    expect((await member.get('/api/dashboard/stats')).statusCode).toBe(403);
    expect((await member.get(`/api/organizations/${org.id}`)).statusCode).toBe(404);
  });
});

describe('cached mail-item lists and settings', () => {
  it('show a new item, a renamed recipient and changed settings on the next request', async () => {
    const admin = new Client(t);
    await admin.register();
    await admin.createOrganization();
    const recipient = (await admin.post('/api/recipients', { firstName: 'Ada', lastName: 'Byron' })).json();
    expect((await admin.get('/api/mail-items')).json()).toHaveLength(0);
    expect((await admin.get('/api/history/stats')).json().totalItems).toBe(0);
    expect((await admin.get('/api/history')).json()).toHaveLength(0);
    await admin.post('/api/mail-items', { type: 'package', recipientId: recipient.id });
    expect((await admin.get('/api/history/stats')).json().totalItems).toBe(1);
    expect((await admin.get('/api/history')).json()).toHaveLength(1);
    const listed = await admin.get('/api/mail-items');
    expect(listed.json()).toHaveLength(1);
    expect(listed.headers['x-total-count']).toBe('1');
    await admin.put(`/api/recipients/${recipient.id}`, { firstName: 'Augusta' });
    expect((await admin.get('/api/mail-items')).json()[0].recipient.firstName).toBe('Augusta');
    expect((await admin.get('/api/dashboard/stats')).json().todaysMail).toBe(1);
    expect((await admin.get('/api/dashboard/trends')).json().newRecipientsThisWeek).toBe(1);
    await admin.post('/api/recipients', { firstName: 'Charles', lastName: 'Babbage' });
    expect((await admin.get('/api/dashboard/trends')).json().newRecipientsThisWeek).toBe(2);

    const orgId = admin.organizationId!;
    expect((await admin.post('/api/mail-items', { type: 'pallet' })).statusCode).toBe(400);
    await admin.put(`/api/organization-settings/${orgId}`, { packageTypes: ['package', 'pallet'] });
    expect((await admin.post('/api/mail-items', { type: 'pallet' })).statusCode).toBe(201);
  });
});

describe("an organization's own changes", () => {
  it("a timezone change moves the dashboard's 'today' at once", async () => {
    const admin = new Client(t);
    await admin.register();
    const org = await admin.createOrganization();
    expect((await admin.put(`/api/organizations/${org.id}`, { timezone: 'UTC' })).statusCode).toBe(200);
    // 12 hours old: "today" in exactly one of UTC and UTC+12 (Tarawa), whatever the time of day.
    await t.db.insert(mailItems).values({
      organizationId: org.id,
      type: 'package',
      status: 'pending',
      arrivedAt: new Date(Date.now() - 12 * 3600_000),
    });
    const inUtc = (await admin.get('/api/dashboard/stats')).json().todaysMail;
    await admin.put(`/api/organizations/${org.id}`, { timezone: 'Pacific/Tarawa' });
    const inTarawa = (await admin.get('/api/dashboard/stats')).json().todaysMail;
    expect(inUtc + inTarawa).toBe(1);
  });
});

describe('VersionedCache', () => {
  it('serves an entry only at the version it was built at, and shares one load between concurrent misses', async () => {
    const cache = new VersionedCache<string, number>(60_000);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 5));
      return loads;
    };
    const values = await Promise.all(Array.from({ length: 20 }, () => cache.getOrLoad('k', '7', load)));
    expect(new Set(values)).toEqual(new Set([1]));
    expect(loads).toBe(1);
    expect(await cache.getOrLoad('k', '7', load)).toBe(1);
    expect(cache.hits).toBe(1);
    // A newer version: the entry is not served; the new one is.
    expect(await cache.getOrLoad('k', '8', load)).toBe(2);
    expect(await cache.getOrLoad('k', '8', load)).toBe(2);
    // No version: never served from or stored in memory.
    expect(await cache.getOrLoad('k', undefined, load)).toBe(3);
    expect(await cache.getOrLoad('k', '8', load)).toBe(2);
  });

  it('keeps the newer entry when a load of an older version finishes later', async () => {
    const cache = new VersionedCache<string, string>(60_000);
    const slowOld = cache.getOrLoad('k', '5', () => new Promise((r) => setTimeout(() => r('old'), 20)));
    expect(await cache.getOrLoad('k', '6', async () => 'new')).toBe('new');
    expect(await slowOld).toBe('old');
    expect(await cache.getOrLoad('k', '6', async () => 'reloaded')).toBe('new');
    // Versions compare as numbers, not text ("10" is newer than "9").
    await cache.getOrLoad('n', '10', async () => 'ten');
    await cache.getOrLoad('n', '9', async () => 'nine');
    expect(await cache.getOrLoad('n', '10', async () => 'reloaded')).toBe('ten');
  });

  it('does not cache misses or failures, caches nothing with a TTL of 0, and expires entries', async () => {
    const cache = new VersionedCache<string, number | undefined>(30);
    let calls = 0;
    await cache.getOrLoad('miss', '1', async () => (calls++, undefined));
    await cache.getOrLoad('miss', '1', async () => (calls++, undefined));
    expect(calls).toBe(2);
    await expect(cache.getOrLoad('boom', '1', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.getOrLoad('boom', '1', async () => 7)).toBe(7);
    await new Promise((r) => setTimeout(r, 40));
    expect(await cache.getOrLoad('boom', '1', async () => 8)).toBe(8);
    const off = new VersionedCache<string, number>(0);
    let n = 0;
    await off.getOrLoad('k', '1', async () => ++n);
    expect(await off.getOrLoad('k', '1', async () => ++n)).toBe(2);
  });

  it('drops the least recently used beyond its size', async () => {
    const cache = new VersionedCache<string, string>(60_000, 2);
    await cache.getOrLoad('a', '1', async () => 'ann');
    await cache.getOrLoad('b', '1', async () => 'bob');
    await cache.getOrLoad('b', '1', async () => 'not loaded'); // b used last…
    await cache.getOrLoad('c', '1', async () => 'cid'); // …so a goes
    expect(cache.size).toBe(2);
    expect(await cache.getOrLoad('a', '1', async () => 'reloaded')).toBe('reloaded');
  });
});
