import { beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, type TestApp } from '../../test/harness';
import { grantSuperAdmin } from './shell';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('grant-super-admin', () => {
  it('grants the flag to an existing account, once', async () => {
    const c = new Client(t);
    const account = await c.register();
    expect((await c.get('/api/auth/user')).json().isSuperAdmin).toBe(false);
    expect(await grantSuperAdmin(t.db, account.email.toUpperCase())).toBe('granted');
    // The command runs in a process of its own: the running instance drops its cached session
    // when the change feed tells it (at once, well inside the cache's TTL).
    await expect
      .poll(async () => (await c.get('/api/auth/user')).json().isSuperAdmin, { timeout: 1_000, interval: 10 })
      .toBe(true);
    expect(await grantSuperAdmin(t.db, account.email)).toBe('already');
  });

  it('reports an unknown email', async () => {
    expect(await grantSuperAdmin(t.db, 'nobody@example.com')).toBe('no_such_user');
  });
});
