import { eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUPER_ADMIN_MESSAGES } from '../../../contract';
import { loadConfig } from '../../config';
import { users } from '../../db/schema';
import { Client, createTestApp, type TestApp } from '../../test/harness';
import { grantSuperAdmin } from './shell';

/**
 * SUPER_ADMIN_TWO_FACTOR=required (production's default, decision 029): the console reaches every
 * organization, so a super admin's password alone does not open it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SUPER_ADMIN_TWO_FACTOR: 'required', CACHE_TTL_MS: '60000' });
});

async function superAdmin() {
  const c = new Client(t);
  const account = await c.register();
  await t.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, account.user.id));
  expect(await grantSuperAdmin(t.db, account.email)).toBe('granted');
  return { c, account };
}

describe('super admins and two-factor', () => {
  it('refuses every console call with 403 two_factor_required until two-factor is on, then opens', async () => {
    const { c, account } = await superAdmin();
    for (const path of ['/api/super-admin/stats', '/api/super-admin/organizations', '/api/super-admin/logs']) {
      const res = await c.get(path);
      expect(res.statusCode, path).toBe(403);
      expect(res.json()).toEqual({ message: SUPER_ADMIN_MESSAGES.twoFactorRequired, code: 'two_factor_required' });
    }
    const setup = await c.post('/api/auth/two-factor/setup', { password: account.password });
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.json().secret) }).generate();
    expect((await c.post('/api/auth/two-factor/enable', { code })).statusCode).toBe(200);
    expect((await c.get('/api/super-admin/stats')).statusCode).toBe(200);

    // Turned off again (here by the shell's reset, which also ends the sessions): refused once more.
    await t.db.update(users).set({ twoFactorEnabledAt: null }).where(eq(users.id, account.user.id));
    expect((await c.get('/api/super-admin/stats')).json().code).toBe('two_factor_required');
  });

  it('still answers a regular user 403 super_admin_required (no hint that two-factor would help)', async () => {
    const c = new Client(t);
    await c.register();
    const res = await c.get('/api/super-admin/stats');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('super_admin_required');
  });

  it('is required by default in production and optional elsewhere', () => {
    const production = { NODE_ENV: 'production', APP_URL: 'https://mail.example.com' };
    expect(loadConfig(production).superAdminTwoFactor).toBe('required');
    expect(loadConfig({ ...production, SUPER_ADMIN_TWO_FACTOR: 'optional' }).superAdminTwoFactor).toBe('optional');
    expect(loadConfig({}).superAdminTwoFactor).toBe('optional');
    expect(() => loadConfig({ SUPER_ADMIN_TWO_FACTOR: 'sometimes' })).toThrow(/SUPER_ADMIN_TWO_FACTOR/);
  });
});
