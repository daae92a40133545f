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
    // The command runs in a process of its own: the running instance's very next request reads
    // the session with the flag (decision 037: sessions are never cached).
    expect((await c.get('/api/auth/user')).json().isSuperAdmin).toBe(true);
    expect(await grantSuperAdmin(t.db, account.email)).toBe('already');
  });

  it('reports an unknown email', async () => {
    expect(await grantSuperAdmin(t.db, 'nobody@example.com')).toBe('no_such_user');
  });
});
