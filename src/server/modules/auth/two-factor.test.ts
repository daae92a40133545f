import { describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { TWO_FACTOR_MESSAGES } from '../../../contract';
import { platformLog, twoFactorChallenges, twoFactorRecoveryCodes, users } from '../../db/schema';
import { Client } from '../../test/harness';
import { mailTestApp } from '../../test/smtp';
import { resetTwoFactor } from '../super-admin/two-factor-reset';

const { t, smtp, workers } = await mailTestApp();
// Its emails go through the outbox (decision 054): a worker sends them, as in production.
workers.start(t);

/** A registered account whose address is verified (two-factor set-up waits for it). */
async function registerVerified(c: Client) {
  const account = await c.register();
  await t.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, account.user.id));
  return account;
}

/** The code an authenticator app shows for the secret, `steps` 30-second steps from now. */
function codeFor(secret: string, steps = 0) {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** Lets the account use codes of earlier steps again (each step's code works once). */
async function forgetUsedSteps(userId: string) {
  await t.db.update(users).set({ twoFactorLastStep: null }).where(eq(users.id, userId));
}

/** A registered account with two-factor on: its client, secret and recovery codes. */
async function withTwoFactor() {
  const c = new Client(t);
  const account = await registerVerified(c);
  const setup = await c.post('/api/auth/two-factor/setup', { password: account.password });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const enabled = await c.post('/api/auth/two-factor/enable', { code: codeFor(secret, -1) });
  expect(enabled.statusCode).toBe(200);
  const { recoveryCodes } = enabled.json<{ recoveryCodes: string[] }>();
  return { c, account, secret, recoveryCodes };
}

async function startLogin(account: { email: string; password: string }) {
  const c = new Client(t);
  const res = await c.post('/api/login', { username: account.email, password: account.password });
  return { c, res };
}

describe('turning two-factor on', () => {
  it('waits for a verified email address: set-up answers 409 and stores nothing until then', async () => {
    const c = new Client(t);
    const account = await c.register();
    const early = await c.post('/api/auth/two-factor/setup', { password: account.password });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'email_not_verified', message: TWO_FACTOR_MESSAGES.verifyEmailFirst });
    const [row] = await t.db.select().from(users).where(eq(users.id, account.user.id));
    expect(row!.twoFactorSecret).toBeNull();
    // A secret stored before this rule (or by a set-up begun before) cannot be turned on either.
    await t.db.update(users).set({ twoFactorSecret: 'x' }).where(eq(users.id, account.user.id));
    const enable = await c.post('/api/auth/two-factor/enable', { code: '123456' });
    expect(enable.statusCode).toBe(409);
    expect(enable.json().code).toBe('email_not_verified');
  });

  it('asks for the password, gives a QR code, and is not in force until a code proves the app', async () => {
    const c = new Client(t);
    const account = await registerVerified(c);
    expect((await c.get('/api/auth/two-factor')).json()).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });

    const wrong = await c.post('/api/auth/two-factor/setup', { password: 'not-it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(TWO_FACTOR_MESSAGES.wrongPassword);

    const setup = await c.post('/api/auth/two-factor/setup', { password: account.password });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCodeSvg } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toContain('otpauth://totp/Pigeonhole:');
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(qrCodeSvg).toMatch(/^<svg/);
    // Set up but not on: signing in still needs only the password.
    expect((await startLogin(account)).res.json()).toHaveProperty('id');

    const bad = await c.post('/api/auth/two-factor/enable', { code: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(TWO_FACTOR_MESSAGES.codeRequired);
    const wrongCode = String((Number(codeFor(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    const refused = await c.post('/api/auth/two-factor/enable', { code: wrongCode });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'invalid_code', message: TWO_FACTOR_MESSAGES.invalidCode });

    const enabled = await c.post('/api/auth/two-factor/enable', { code: codeFor(secret).replace(/^(...)/, '$1 ') });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const status = (await c.get('/api/auth/two-factor')).json();
    expect(status).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect(Date.parse(status.enabledAt)).toBeGreaterThan(Date.now() - 60_000);

    // A second setup cannot replace the secret in force.
    const again = await c.post('/api/auth/two-factor/setup', { password: account.password });
    expect(again.statusCode).toBe(409);
  });

  it('stores the secret encrypted and the recovery codes only hashed', async () => {
    const { account, secret, recoveryCodes } = await withTwoFactor();
    const [row] = await t.db.select().from(users).where(eq(users.id, account.user.id));
    expect(row!.twoFactorSecret).toMatch(/^enc:v1:/);
    expect(row!.twoFactorSecret).not.toContain(secret);
    const stored = await t.db
      .select({ codeHash: twoFactorRecoveryCodes.codeHash })
      .from(twoFactorRecoveryCodes)
      .where(eq(twoFactorRecoveryCodes.userId, account.user.id));
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify(stored);
    for (const code of recoveryCodes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replaceAll('-', ''));
    }
  });

  it('ends the other sessions of the account (one opened before may be someone else’s)', async () => {
    const c = new Client(t);
    const account = await registerVerified(c);
    const other = new Client(t);
    await other.post('/api/login', { username: account.email, password: account.password });
    expect((await other.get('/api/auth/user')).statusCode).toBe(200);
    const { secret } = (await c.post('/api/auth/two-factor/setup', { password: account.password })).json();
    await c.post('/api/auth/two-factor/enable', { code: codeFor(secret) });
    expect((await other.get('/api/auth/user')).statusCode).toBe(401);
    expect((await c.get('/api/auth/user')).statusCode).toBe(200);
  });

  it('refuses every call signed out', async () => {
    const c = new Client(t);
    for (const [method, url] of [
      ['GET', '/api/auth/two-factor'],
      ['POST', '/api/auth/two-factor/setup'],
      ['POST', '/api/auth/two-factor/enable'],
      ['POST', '/api/auth/two-factor/disable'],
      ['POST', '/api/auth/two-factor/recovery-codes'],
    ] as const) {
      const res = await c.request(method, url, method === 'POST' ? { password: 'x', code: '123456' } : undefined);
      expect(res.statusCode, url).toBe(401);
    }
  });
});

describe('signing in with two-factor on', () => {
  it('answers a challenge and no session for the password, then signs in with a code', async () => {
    const { account, secret } = await withTwoFactor();
    const { c, res } = await startLogin(account);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ twoFactorRequired: true });
    expect(body).not.toHaveProperty('id');
    expect(res.cookies.find((k) => k.name === 'pigeonhole.sid')).toBeUndefined();
    expect((await c.get('/api/auth/user')).statusCode).toBe(401);

    const wrong = await c.post('/api/login/two-factor', { challenge: body.challenge, code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(TWO_FACTOR_MESSAGES.invalidCode);
    expect((await c.get('/api/auth/user')).statusCode).toBe(401);

    const ok = await c.post('/api/login/two-factor', { challenge: body.challenge, code: codeFor(secret) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: account.user.id, email: account.email });
    expect((await c.get('/api/auth/user')).statusCode).toBe(200);

    // The challenge is spent with its sign-in.
    const reused = await c.post('/api/login/two-factor', { challenge: body.challenge, code: codeFor(secret, 1) });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ code: 'challenge_expired', message: TWO_FACTOR_MESSAGES.challengeExpired });
  });

  it('takes each code once: a code seen over a shoulder cannot open a second session', async () => {
    const { account, secret } = await withTwoFactor();
    await forgetUsedSteps(account.user.id);
    const code = codeFor(secret);
    const first = await startLogin(account);
    const ok = await first.c.post('/api/login/two-factor', { challenge: first.res.json().challenge, code });
    expect(ok.statusCode).toBe(200);
    const second = await startLogin(account);
    const replay = await second.c.post('/api/login/two-factor', { challenge: second.res.json().challenge, code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('invalid_code');
    // An earlier step's code is refused too once a later one was used.
    const earlier = await second.c.post('/api/login/two-factor', {
      challenge: second.res.json().challenge,
      code: codeFor(secret, -1),
    });
    expect(earlier.statusCode).toBe(400);
  });

  it('accepts each recovery code once, typed in any case and without dashes', async () => {
    const { account, recoveryCodes } = await withTwoFactor();
    const first = await startLogin(account);
    const ok = await first.c.post('/api/login/two-factor', {
      challenge: first.res.json().challenge,
      code: recoveryCodes[0]!.toUpperCase().replaceAll('-', ''),
    });
    expect(ok.statusCode).toBe(200);
    const second = await startLogin(account);
    const again = await second.c.post('/api/login/two-factor', {
      challenge: second.res.json().challenge,
      code: recoveryCodes[0],
    });
    expect(again.statusCode).toBe(400);
    expect((await ok.json()).id).toBe(account.user.id);
    expect((await first.c.get('/api/auth/two-factor')).json().recoveryCodesLeft).toBe(9);
  });

  it('refuses an expired challenge and an unknown one', async () => {
    const { account, secret } = await withTwoFactor();
    const { c, res } = await startLogin(account);
    await t.asOwner(
      `update two_factor_challenges set expires_at = now() - interval '1 second' where user_id = '${account.user.id}'`,
    );
    const late = await c.post('/api/login/two-factor', { challenge: res.json().challenge, code: codeFor(secret) });
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('challenge_expired');
    const unknown = await c.post('/api/login/two-factor', { challenge: 'made-up', code: codeFor(secret) });
    expect(unknown.statusCode).toBe(400);
    const empty = await c.post('/api/login/two-factor', { challenge: res.json().challenge, code: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(TWO_FACTOR_MESSAGES.codeOrRecoveryRequired);
  });

  it('stops guessing after ten wrong codes, even with the right one next', async () => {
    const { account, secret } = await withTwoFactor();
    const { c, res } = await startLogin(account);
    const challenge = res.json().challenge;
    const right = codeFor(secret);
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 10; i += 1) {
      expect((await c.post('/api/login/two-factor', { challenge, code: wrong })).statusCode).toBe(400);
    }
    const limited = await c.post('/api/login/two-factor', { challenge, code: right });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(TWO_FACTOR_MESSAGES.tooMany);
    expect((await c.get('/api/auth/user')).statusCode).toBe(401);
  });
});

describe('guessing codes with a stolen password (issue 24)', () => {
  const wrongCodeFor = (secret: string) => (codeFor(secret) === '123456' ? '654321' : '123456');

  /** Sends `n` wrong codes to one challenge; answers the statuses. */
  async function guess(account: { email: string; password: string }, code: string, n: number) {
    const { c, res } = await startLogin(account);
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 1) {
      statuses.push((await c.post('/api/login/two-factor', { challenge: res.json().challenge, code })).statusCode);
    }
    return statuses;
  }

  /** The owner asks for a reset link and sets `password` through it, as from the sign-in page. */
  async function resetThroughEmail(email: string, password: string) {
    await new Client(t).post('/api/forgot-password', { email });
    const mail = await smtp.waitFor(email, { subject: /Reset/ });
    smtp.received.splice(smtp.received.indexOf(mail), 1);
    const token = /reset-password\?token=([\w-]+)/.exec(mail.text)![1];
    expect((await new Client(t).post('/api/reset-password', { token, password })).statusCode).toBe(200);
  }

  /** Lets the 15-minute window of sign-in codes pass (the day's count stays). */
  const windowPasses = (userId: string) =>
    t.asOwner(
      `update rate_limits set window_start = now() - interval '16 minutes' where key = 'two-factor:sign-in:${userId}'`,
    );

  it('does not lock the signed-in owner out of their settings, and tells the owner and the platform log', async () => {
    const { c: owner, account, secret } = await withTwoFactor();
    expect(await guess(account, wrongCodeFor(secret), 11)).toEqual([...Array(10).fill(400), 429]);

    // The owner, signed in elsewhere, still manages two-factor with a right code.
    const codes = await owner.post('/api/auth/two-factor/recovery-codes', { code: codeFor(secret) });
    expect(codes.statusCode, codes.body).toBe(200);

    const notice = await smtp.waitFor(account.email, { subject: /Wrong two-factor codes/ });
    smtp.received.splice(smtp.received.indexOf(notice), 1);
    expect(notice.text).toContain('10 wrong two-factor codes');
    expect(notice.text).toContain('reset it now');
    const logged = await t.db.select().from(platformLog).where(eq(platformLog.targetId, account.user.id));
    expect(logged).toEqual([
      expect.objectContaining({
        kind: 'sign_in',
        action: 'sign_in.repeated_two_factor_failures',
        targetLabel: account.email,
        details: { attempts: 10, windowMinutes: 15 },
      }),
    ]);
    // One entry and one email per window, however long the guessing goes on.
    expect(await guess(account, wrongCodeFor(secret), 3)).toEqual([429, 429, 429]);
    expect(await t.db.select().from(platformLog).where(eq(platformLog.targetId, account.user.id))).toHaveLength(1);
    await expect(smtp.waitFor(account.email, { subject: /Wrong two-factor codes/, timeoutMs: 500 })).rejects.toThrow();
  });

  it('caps the day at 30 wrong codes, however the windows fall; a password reset lets the owner back in', async () => {
    const { account, secret } = await withTwoFactor();
    for (let window = 0; window < 3; window += 1) {
      expect(await guess(account, wrongCodeFor(secret), 10)).toEqual(Array(10).fill(400));
      await windowPasses(account.user.id);
    }
    const { c, res } = await startLogin(account);
    const capped = await c.post('/api/login/two-factor', { challenge: res.json().challenge, code: codeFor(secret) });
    expect(capped.statusCode).toBe(429);
    expect(capped.json().message).toBe(TWO_FACTOR_MESSAGES.tooManyToday);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(22 * 3600);
    const notice = await smtp.waitFor(account.email, { subject: /Wrong two-factor codes/ });
    smtp.received.splice(smtp.received.indexOf(notice), 1);
    expect(notice.text).toContain('30 wrong two-factor codes');

    // The owner resets the password from the emailed link; the count starts again.
    await resetThroughEmail(account.email, 'owners-new-one');
    await forgetUsedSteps(account.user.id);
    const back = await startLogin({ email: account.email, password: 'owners-new-one' });
    const ok = await back.c.post('/api/login/two-factor', {
      challenge: back.res.json().challenge,
      code: codeFor(secret),
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a password reset ends every challenge opened before it', async () => {
    const { account, secret } = await withTwoFactor();
    const before = await startLogin(account);
    expect(before.res.json()).toHaveProperty('challenge');

    await resetThroughEmail(account.email, 'owners-new-one');
    const open = await t.db
      .select()
      .from(twoFactorChallenges)
      .where(and(eq(twoFactorChallenges.userId, account.user.id), isNull(twoFactorChallenges.usedAt)));
    expect(open).toHaveLength(0);
    await forgetUsedSteps(account.user.id);
    const late = await before.c.post('/api/login/two-factor', {
      challenge: before.res.json().challenge,
      code: codeFor(secret),
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('challenge_expired');
    expect((await before.c.get('/api/auth/user')).statusCode).toBe(401);
  });
});

describe('turning two-factor off and new recovery codes', () => {
  it('needs the password and a code; afterwards the password alone signs in', async () => {
    const { c, account, secret } = await withTwoFactor();
    const noPassword = await c.post('/api/auth/two-factor/disable', { password: 'wrong', code: codeFor(secret) });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().message).toBe(TWO_FACTOR_MESSAGES.wrongPassword);
    const noCode = await c.post('/api/auth/two-factor/disable', { password: account.password, code: '111111' });
    expect(noCode.statusCode).toBe(400);
    expect((await c.get('/api/auth/two-factor')).json().enabled).toBe(true);

    const off = await c.post('/api/auth/two-factor/disable', { password: account.password, code: codeFor(secret) });
    expect(off.statusCode).toBe(200);
    expect(off.json().message).toBe(TWO_FACTOR_MESSAGES.disabled);
    expect((await c.get('/api/auth/two-factor')).json()).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, account.user.id));
    expect(row!.twoFactorSecret).toBeNull();
    expect((await startLogin(account)).res.json()).toHaveProperty('id', account.user.id);
    const again = await c.post('/api/auth/two-factor/disable', {
      password: account.password,
      code: codeFor(secret, 1),
    });
    expect(again.statusCode).toBe(409);
  });

  it('replaces the recovery codes: the old ones stop working', async () => {
    const { c, account, recoveryCodes } = await withTwoFactor();
    const res = await c.post('/api/auth/two-factor/recovery-codes', { code: recoveryCodes[1] });
    expect(res.statusCode).toBe(200);
    const fresh: string[] = res.json().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[2]);
    const { c: other, res: login } = await startLogin(account);
    const old = await other.post('/api/login/two-factor', {
      challenge: login.json().challenge,
      code: recoveryCodes[2],
    });
    expect(old.statusCode).toBe(400);
    const ok = await other.post('/api/login/two-factor', { challenge: login.json().challenge, code: fresh[0] });
    expect(ok.statusCode).toBe(200);
  });
});

describe('npm run admin -- reset-two-factor', () => {
  it('turns two-factor off for an account that lost its phone and codes, and ends its sessions', async () => {
    const { c, account } = await withTwoFactor();
    expect(await resetTwoFactor(t.db, 'nobody@example.com')).toBe('no_such_user');
    expect(await resetTwoFactor(t.db, account.email.toUpperCase())).toBe('reset');
    expect((await c.get('/api/auth/user')).statusCode).toBe(401);
    expect((await startLogin(account)).res.json()).toHaveProperty('id', account.user.id);
    expect(await resetTwoFactor(t.db, account.email)).toBe('not_enabled');
  });
});
