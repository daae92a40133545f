import { beforeAll, describe, expect, it } from 'vitest';
import { TtlCache } from './lib/ttl-cache';
import { Client, createTestApp, joinAs, type TestApp } from './test/harness';

/** With caching on, this instance's own writes must take effect on the very next request. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ CACHE_TTL_MS: '60000' });
});

describe('cached lookups are invalidated by local writes', () => {
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

    const orgId = admin.organizationId!;
    expect((await admin.post('/api/mail-items', { type: 'pallet' })).statusCode).toBe(400);
    await admin.put(`/api/organization-settings/${orgId}`, { packageTypes: ['package', 'pallet'] });
    expect((await admin.post('/api/mail-items', { type: 'pallet' })).statusCode).toBe(201);
  });
});

describe('TtlCache', () => {
  it('shares one load between concurrent misses and expires entries', async () => {
    const cache = new TtlCache<string, number>(30);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 5));
      return loads;
    };
    const values = await Promise.all(Array.from({ length: 20 }, () => cache.getOrLoad('k', load)));
    expect(new Set(values)).toEqual(new Set([1]));
    expect(loads).toBe(1);
    await new Promise((r) => setTimeout(r, 40));
    expect(await cache.getOrLoad('k', load)).toBe(2);
  });

  it('does not cache misses or failures, and caches nothing with a TTL of 0', async () => {
    const cache = new TtlCache<string, number | undefined>(1000);
    let calls = 0;
    await cache.getOrLoad('miss', async () => (calls++, undefined));
    await cache.getOrLoad('miss', async () => (calls++, undefined));
    expect(calls).toBe(2);
    await expect(cache.getOrLoad('boom', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.getOrLoad('boom', async () => 7)).toBe(7);
    const off = new TtlCache<string, number>(0);
    let n = 0;
    await off.getOrLoad('k', async () => ++n);
    expect(await off.getOrLoad('k', async () => ++n)).toBe(2);
  });
});
