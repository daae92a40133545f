import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { passwordResetTokens, platformLog, sessions, users } from '../../db/schema';
import { EMAIL_VERIFICATION_MESSAGES } from '../../../contract';
import { Client, createTestApp, newAccount, type TestApp } from '../../test/harness';
import { createTestAppWithSmtp, type TestSmtp } from '../../test/smtp';
import { testWorkers } from '../../test/notification-workers';

let t: TestApp;
let smtp: TestSmtp;

const workers = testWorkers();
beforeAll(async () => {
  ({ t, smtp } = await createTestAppWithSmtp({
    SUPER_ADMIN_EMAILS: 'boss@example.com, chief@example.com, ops@example.com',
    LOGIN_RATE_LIMIT_ACCOUNT: '3',
    LOGIN_RATE_LIMIT_IP: '1000',
  }));
  // Its emails go through the outbox (decision 054): a worker sends them, as in production.
  workers.start(t);
});

describe('POST /api/register', () => {
  it('creates the account, signs it in and never returns the password hash', async () => {
    const c = new Client(t);
    const account = newAccount();
    const res = await c.post('/api/register', { ...account, firstName: 'Ada', lastName: 'Lovelace' });
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({
      email: account.email,
      username: account.username,
      firstName: 'Ada',
      isSuperAdmin: false,
    });
    expect(JSON.stringify(user)).not.toContain('argon2');
    expect(user).not.toHaveProperty('password');
    const me = await c.get('/api/auth/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(user.id);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.password).toMatch(/^\$argon2id\$/);
  });

  it('stores the email lower-cased and refuses a duplicate whatever its case', async () => {
    const c = new Client(t);
    const account = newAccount();
    await c.post('/api/register', { ...account, email: account.email.toUpperCase() });
    const dup = await new Client(t).post('/api/register', { ...newAccount(), email: account.email });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('An account with this email already exists');
  });

  it('refuses a username taken in another case', async () => {
    const account = newAccount();
    await new Client(t).post('/api/register', account);
    const res = await new Client(t).post('/api/register', {
      ...newAccount(),
      username: account.username.toUpperCase(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This username is already taken');
  });

  it.each([
    [{ username: 'ab' }, 'Username must be at least 3 characters'],
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ password: '12345' }, 'Password must be at least 6 characters'],
    [{ firstName: 'x'.repeat(101) }, 'First name must be less than 100 characters'],
    [{ username: 123 }, 'Username is required'],
  ])('answers 400 with the specification message for %o', async (patch, message) => {
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(users);
    const res = await new Client(t).post('/api/register', { ...newAccount(), ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(res.json().errors.length).toBeGreaterThan(0);
    const after = await t.db.select({ n: sql<number>`count(*)::int` }).from(users);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('answers 400 when a field is missing', async () => {
    const res = await new Client(t).post('/api/register', { username: 'someone' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['email', 'password']),
    );
  });
});

describe('SUPER_ADMIN_EMAILS: the role for whoever holds the inbox (issue 24)', () => {
  /** The link of the first email to `to` whose subject matches, taken out of the inbox. */
  async function linkIn(to: string, subject: RegExp, path: string) {
    const mail = await smtp.waitFor(to, { subject });
    smtp.received.splice(smtp.received.indexOf(mail), 1);
    const token = new RegExp(`http://pigeonhole\\.test/${path}\\?token=([\\w-]+)`).exec(mail.text)?.[1];
    expect(token, mail.text).toBeDefined();
    return { token: token!, mail };
  }
  const superAdminEntries = (userId: string) =>
    t.db
      .select()
      .from(platformLog)
      .where(and(eq(platformLog.targetId, userId), eq(platformLog.kind, 'super_admin')));

  it('grants nothing to whoever registered the address first: the role waits for the password set through the emailed link', async () => {
    // The probe: an attacker registers the listed address with their own password.
    const attacker = new Client(t);
    const res = await attacker.post('/api/register', {
      ...newAccount(),
      email: 'Boss@Example.com',
      password: 'attackers-own',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ isSuperAdmin: false, emailVerified: false });
    const userId = res.json().id as string;

    // The real owner opens the verification email: the page verifies on load, and grants nothing.
    const verify = await linkIn('boss@example.com', /Verify/, 'verify-email');
    const verified = await new Client(t).post('/api/verify-email', { token: verify.token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ message: EMAIL_VERIFICATION_MESSAGES.verifiedSuperAdmin });
    expect((await attacker.get('/api/auth/user')).json()).toMatchObject({ isSuperAdmin: false, emailVerified: true });
    expect((await attacker.get('/api/super-admin/stats')).statusCode).toBe(403);
    // Signing in again grants nothing either (it did before).
    const again = new Client(t);
    expect(
      (await again.post('/api/login', { username: 'boss@example.com', password: 'attackers-own' })).json(),
    ).toMatchObject({ isSuperAdmin: false });

    // Meanwhile the attacker binds their own authenticator app to the account.
    const setup = await attacker.post('/api/auth/two-factor/setup', { password: 'attackers-own' });
    expect(setup.statusCode).toBe(200);
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.json().secret) }).generate();
    expect((await attacker.post('/api/auth/two-factor/enable', { code })).statusCode).toBe(200);
    const pending = new Client(t);
    const challenge = (
      await pending.post('/api/login', { username: 'boss@example.com', password: 'attackers-own' })
    ).json();
    expect(challenge).toHaveProperty('challenge');

    // The inbox got a second link; setting the password through it is what grants the role.
    const claim = await linkIn('boss@example.com', /platform administrator/, 'reset-password');
    expect(claim.mail.text).toContain('makes this account the platform administrator');
    expect(await superAdminEntries(userId)).toHaveLength(0);
    const set = await new Client(t).post('/api/reset-password', { token: claim.token, password: 'owners-own' });
    expect(set.statusCode).toBe(200);

    // Every session, challenge and the two-factor the attacker set up are gone.
    expect((await attacker.get('/api/auth/user')).statusCode).toBe(401);
    expect((await again.get('/api/auth/user')).statusCode).toBe(401);
    const late = await pending.post('/api/login/two-factor', { challenge: challenge.challenge, code: '000000' });
    expect(late.json().code).toBe('challenge_expired');
    expect(
      (await new Client(t).post('/api/login', { username: 'boss@example.com', password: 'attackers-own' })).statusCode,
    ).toBe(401);
    const owner = new Client(t);
    const signedIn = await owner.post('/api/login', { username: 'boss@example.com', password: 'owners-own' });
    expect(signedIn.json()).toMatchObject({ id: userId, isSuperAdmin: true, emailVerified: true });
    expect((await owner.get('/api/super-admin/stats')).statusCode).toBe(200);
    expect((await owner.get('/api/auth/two-factor')).json()).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
    expect(await superAdminEntries(userId)).toEqual([
      expect.objectContaining({
        action: 'user.super_admin_granted',
        targetLabel: 'boss@example.com',
        details: { via: 'inbox' },
      }),
    ]);

    // Single use, both links.
    expect((await new Client(t).post('/api/verify-email', { token: verify.token })).json()).toMatchObject({
      message: EMAIL_VERIFICATION_MESSAGES.invalid,
      code: 'invalid_token',
    });
    expect(
      (await new Client(t).post('/api/reset-password', { token: claim.token, password: 'x-again-1' })).statusCode,
    ).toBe(400);
  });

  it('lets the owner whose address was taken in through "Forgot password?", without the taker\'s two-factor code', async () => {
    const taker = new Client(t);
    const taken = await taker.register({ email: 'chief@example.com', password: 'takers-own' });
    // Two-factor turned on by the taker (as it could be before set-up waited for a verified address).
    await t.db
      .update(users)
      .set({ twoFactorSecret: 'enc:v1:stale', twoFactorEnabledAt: new Date() })
      .where(eq(users.id, taken.user.id));
    expect(
      (await new Client(t).post('/api/register', { ...newAccount(), email: 'chief@example.com' })).statusCode,
    ).toBe(409);

    expect((await new Client(t).post('/api/forgot-password', { email: 'chief@example.com' })).statusCode).toBe(200);
    const reset = await linkIn('chief@example.com', /Reset/, 'reset-password');
    expect(reset.mail.text).toContain('makes this account the platform administrator');
    expect(
      (await new Client(t).post('/api/reset-password', { token: reset.token, password: 'owners-own' })).statusCode,
    ).toBe(200);
    const owner = new Client(t);
    const signedIn = await owner.post('/api/login', { username: 'chief@example.com', password: 'owners-own' });
    expect(signedIn.json()).toMatchObject({ isSuperAdmin: true, emailVerified: true });
    expect((await taker.get('/api/auth/user')).statusCode).toBe(401);
  });

  it('an invitation proves the address but grants nothing until the password is set through the emailed link', async () => {
    const admin = new Client(t);
    await admin.register();
    await admin.createOrganization('Platform Staff');
    await admin.post('/api/user-invitations', { email: 'ops@example.com', role: 'member' });
    const invite = await smtp.waitFor('ops@example.com', { subject: /invit/i });
    smtp.received.splice(smtp.received.indexOf(invite), 1);
    const invitationToken = /invitation=([\w-]+)/.exec(invite.text)?.[1];
    const res = await new Client(t).post('/api/register', {
      ...newAccount(),
      email: 'ops@example.com',
      invitationToken,
    });
    expect(res.json()).toMatchObject({ emailVerified: true, isSuperAdmin: false });
    const claim = await linkIn('ops@example.com', /platform administrator/, 'reset-password');
    expect(
      (await new Client(t).post('/api/reset-password', { token: claim.token, password: 'ops-password' })).statusCode,
    ).toBe(200);
    const ops = new Client(t);
    expect(
      (await ops.post('/api/login', { username: 'ops@example.com', password: 'ops-password' })).json(),
    ).toMatchObject({
      isSuperAdmin: true,
    });
  });

  it('an address not on the list gets an ordinary reset: no role, and its two-factor stays on', async () => {
    const c = new Client(t);
    const account = await c.register();
    await t.db
      .update(users)
      .set({ twoFactorSecret: 'enc:v1:kept', twoFactorEnabledAt: new Date() })
      .where(eq(users.id, account.user.id));
    await new Client(t).post('/api/forgot-password', { email: account.email });
    const reset = await linkIn(account.email, /Reset/, 'reset-password');
    expect(reset.mail.text).not.toContain('platform administrator');
    await new Client(t).post('/api/reset-password', { token: reset.token, password: 'a-new-password' });
    const [row] = await t.db.select().from(users).where(eq(users.id, account.user.id));
    expect(row).toMatchObject({ isSuperAdmin: false, twoFactorSecret: 'enc:v1:kept' });
    expect(row!.twoFactorEnabledAt).not.toBeNull();
  });
});

describe('email verification', () => {
  it('refuses unknown, malformed and NUL tokens with 400, changing nothing', async () => {
    for (const body of [{ token: 'not-a-token' }, {}, { token: '' }, { token: 'x'.repeat(500) }]) {
      expect((await new Client(t).post('/api/verify-email', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('resends a link to a signed-in unverified account, a few an hour, and 409 once verified', async () => {
    const c = new Client(t);
    const account = await c.register();
    await smtp.waitFor(account.email, { subject: /Verify/ });
    expect((await new Client(t).post('/api/verify-email/resend')).statusCode).toBe(401);
    for (let i = 0; i < 5; i++) {
      const res = await c.post('/api/verify-email/resend');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: EMAIL_VERIFICATION_MESSAGES.sent });
    }
    expect((await c.post('/api/verify-email/resend')).statusCode).toBe(429);
    await t.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, account.user.id));
    const done = await c.post('/api/verify-email/resend');
    expect(done.statusCode).toBe(409);
    expect(done.json()).toMatchObject({ code: 'already_verified' });
  });

  it('takes an accepted invitation as proof of the address', async () => {
    const admin = new Client(t);
    await admin.register();
    const org = await admin.createOrganization('Verified Via Invite');
    const invitee = newAccount();
    const sent = await admin.post('/api/user-invitations', { email: invitee.email, role: 'member' });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await smtp.waitFor(invitee.email, { subject: /invit/i });
    smtp.received.splice(smtp.received.indexOf(mail), 1);
    const invitationToken = /invitation=([\w-]+)/.exec(mail.text)?.[1];
    const res = await new Client(t).post('/api/register', { ...invitee, invitationToken });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ emailVerified: true });
    expect(res.json().invitation).toMatchObject({ status: 'joined', organizationId: org.id });
  });
});

describe('POST /api/login and /api/logout', () => {
  it('signs in with the email or the username, and out again', async () => {
    const account = newAccount();
    await new Client(t).post('/api/register', account);
    for (const login of [account.email, account.username.toUpperCase()]) {
      const c = new Client(t);
      const res = await c.post('/api/login', { username: login, password: account.password });
      expect(res.statusCode).toBe(200);
      expect(res.json().email).toBe(account.email);
      // Only a sign-in through an invitation link reports a join outcome.
      expect(res.json()).not.toHaveProperty('invitation');
      const cookie = res.cookies.find((k) => k.name === 'pigeonhole.sid')!;
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Lax');
      const out = await c.post('/api/logout');
      expect(out.statusCode).toBe(204);
      // The old cookie no longer works even if a client kept it.
      const again = await t.app.inject({
        method: 'GET',
        url: '/api/auth/user',
        cookies: { 'pigeonhole.sid': cookie.value },
      });
      expect(again.statusCode).toBe(401);
    }
  });

  it('signs in with a blank or unknown invitation token and reports the join as invalid', async () => {
    const account = newAccount();
    await new Client(t).post('/api/register', account);
    const blank = await new Client(t).post('/api/login', {
      username: account.email,
      password: account.password,
      invitationToken: ' ',
    });
    expect(blank.statusCode).toBe(200);
    expect(blank.json()).not.toHaveProperty('invitation');
    const unknown = await new Client(t).post('/api/login', {
      username: account.email,
      password: account.password,
      invitationToken: 'no-such-token',
    });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().invitation).toMatchObject({ status: 'invalid' });
  });

  it('answers the same 401 for a wrong password and an unknown account', async () => {
    const account = newAccount();
    await new Client(t).post('/api/register', account);
    const wrong = await new Client(t).post('/api/login', { username: account.email, password: 'nope-nope' });
    const unknown = await new Client(t).post('/api/login', { username: 'ghost@example.com', password: 'nope-nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid username or password');
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('validates the body', async () => {
    const res = await new Client(t).post('/api/login', { username: '', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { message: string }) => e.message)).toEqual([
      'Email is required',
      'Password is required',
    ]);
  });

  it('counts email and username as one account, and slows the guessing down rather than locking the owner out', async () => {
    const account = newAccount();
    await new Client(t).post('/api/register', account);
    const attempt = (username: string, password = 'wrong-password') =>
      new Client(t).post('/api/login', { username, password });
    for (let i = 0; i < 3; i += 1) expect((await attempt(account.email)).statusCode).toBe(401);
    // Past the limit one attempt goes through per interval (1 s first), whichever name is typed.
    expect((await attempt(account.username)).statusCode).toBe(401);
    const slowed = await attempt(account.username, account.password);
    expect(slowed.statusCode).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBe(1);
    expect(slowed.json().message).toBe('Too many login attempts. Please try again later.');
    // Slowed, not locked: once the interval has passed the owner's right password gets in.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await attempt(account.email, account.password)).statusCode).toBe(200);
    // A successful sign-in starts the count afresh.
    for (let i = 0; i < 3; i += 1) expect((await attempt(account.email)).statusCode).toBe(401);
  });

  it('answers an unknown name exactly as a real account under the same guessing', async () => {
    const account = newAccount();
    await new Client(t).post('/api/register', account);
    const statuses = async (username: string) => {
      const seen: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        seen.push((await new Client(t).post('/api/login', { username, password: 'wrong-password' })).statusCode);
      }
      return seen;
    };
    const known = await statuses(account.email);
    expect(known).toEqual([401, 401, 401, 401, 429, 429]);
    expect(await statuses(`ghost-${account.username}@example.com`)).toEqual(known);
  });

  describe('per address', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await createTestApp({ LOGIN_RATE_LIMIT_IP: '4', LOGIN_RATE_LIMIT_ACCOUNT: '100' });
    });

    it('stops one address guessing across many names, with Retry-After for the window', async () => {
      const account = newAccount();
      await new Client(limited).post('/api/register', account);
      for (let i = 0; i < 4; i += 1) {
        const res = await new Client(limited).post('/api/login', { username: `name${i}`, password: 'wrong-password' });
        expect(res.statusCode).toBe(401);
      }
      const refused = await new Client(limited).post('/api/login', account);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    });
  });

  it('logout without a session still answers 204', async () => {
    expect((await new Client(t).post('/api/logout')).statusCode).toBe(204);
  });
});

describe('sessions', () => {
  it('answers 401 when signed out or with a forged cookie', async () => {
    expect((await new Client(t).get('/api/auth/user')).statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      cookies: { 'pigeonhole.sid': 'forged' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe('Not authenticated');
  });

  it('stores only a hash of the cookie token and expires sessions', async () => {
    const c = new Client(t);
    const { user } = await c.register();
    const token = c.cookie!.split('=')[1]!;
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sid).not.toBe(token);
    await t.db
      .update(sessions)
      .set({ expire: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    expect((await c.get('/api/auth/user')).statusCode).toBe(401);
  });

  it('renews a session in the second half of its life', async () => {
    const c = new Client(t);
    const { user } = await c.register();
    const soon = new Date(Date.now() + 3600_000);
    await t.db.update(sessions).set({ expire: soon }).where(eq(sessions.userId, user.id));
    const res = await c.get('/api/auth/user');
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((k) => k.name === 'pigeonhole.sid')?.expires?.getTime()).toBeGreaterThan(soon.getTime());
    const [row] = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row!.expire.getTime()).toBeGreaterThan(soon.getTime() + 24 * 3600_000);
  });
});

describe('PATCH /api/auth/user', () => {
  it('updates the name', async () => {
    const c = new Client(t);
    await c.register();
    const res = await c.patch('/api/auth/user', { firstName: ' Grace ', lastName: 'Hopper' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
  });

  it.each([
    [{ firstName: '', lastName: 'Hopper' }, 'First name is required'],
    [{ firstName: 'Grace', lastName: '   ' }, 'Last name is required'],
    [{ firstName: 'G'.repeat(101), lastName: 'Hopper' }, 'First name must be less than 100 characters'],
  ])('refuses %o', async (body, message) => {
    const c = new Client(t);
    await c.register({ firstName: 'Keep' });
    const res = await c.patch('/api/auth/user', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect((await c.get('/api/auth/user')).json().firstName).toBe('Keep');
  });

  it('answers 401 when signed out', async () => {
    expect((await new Client(t).patch('/api/auth/user', { firstName: 'a', lastName: 'b' })).statusCode).toBe(401);
  });
});

describe('PUT /api/auth/user/language', () => {
  it("keeps the staff screens' language on the account, and null follows the browser again", async () => {
    const c = new Client(t);
    await c.register();
    expect((await c.get('/api/auth/user')).json().language).toBeNull();
    const res = await c.put('/api/auth/user/language', { language: 'es' });
    expect(res.statusCode).toBe(200);
    expect(res.json().language).toBe('es');
    // The next request (a new page load) reads it from the account, not from the reply.
    expect((await c.get('/api/auth/user')).json().language).toBe('es');
    expect((await c.put('/api/auth/user/language', { language: null })).json().language).toBeNull();
    expect((await c.get('/api/auth/user')).json().language).toBeNull();
  });

  it.each([[{ language: 'fr' }], [{ language: 'ES' }], [{}]])('refuses %o and changes nothing', async (body) => {
    const c = new Client(t);
    await c.register();
    await c.put('/api/auth/user/language', { language: 'es' });
    const res = await c.put('/api/auth/user/language', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Language must be one of: en, es');
    expect((await c.get('/api/auth/user')).json().language).toBe('es');
  });

  it('answers 401 when signed out', async () => {
    expect((await new Client(t).put('/api/auth/user/language', { language: 'es' })).statusCode).toBe(401);
  });
});

describe('POST /api/change-password', () => {
  it('changes the password, keeps this session and ends the others', async () => {
    const c = new Client(t);
    const account = await c.register();
    const other = new Client(t);
    await other.post('/api/login', { username: account.email, password: account.password });
    const res = await c.post('/api/change-password', {
      currentPassword: account.password,
      newPassword: 'brand-new-pass',
    });
    expect(res.statusCode).toBe(200);
    expect((await c.get('/api/auth/user')).statusCode).toBe(200);
    expect((await other.get('/api/auth/user')).statusCode).toBe(401);
    const login = await new Client(t).post('/api/login', { username: account.email, password: 'brand-new-pass' });
    expect(login.statusCode).toBe(200);
  });

  it('refuses a wrong current password and a short new one, changing nothing', async () => {
    const c = new Client(t);
    const account = await c.register();
    const wrong = await c.post('/api/change-password', { currentPassword: 'not-it', newPassword: 'brand-new-pass' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Current password is incorrect');
    const short = await c.post('/api/change-password', { currentPassword: account.password, newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('New password must be at least 8 characters long.');
    const missing = await c.post('/api/change-password', { newPassword: 'brand-new-pass' });
    expect(missing.json().message).toBe('Please fill in all password fields.');
    expect(
      (await new Client(t).post('/api/login', { username: account.email, password: account.password })).statusCode,
    ).toBe(200);
  });

  it('answers 401 when signed out', async () => {
    const res = await new Client(t).post('/api/change-password', { currentPassword: 'a', newPassword: 'abcdefgh' });
    expect(res.statusCode).toBe(401);
  });
});

describe('registration limits', () => {
  it('refuses the 4th account from one address within the hour (429), creating nothing', async () => {
    const limited = await createTestApp({ REGISTER_RATE_LIMIT_IP: '3' });
    for (let i = 0; i < 3; i++)
      expect((await new Client(limited).post('/api/register', newAccount())).statusCode).toBe(201);
    const account = newAccount();
    const refused = await new Client(limited).post('/api/register', account);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    const [row] = await limited.db.select().from(users).where(eq(users.email, account.email));
    expect(row).toBeUndefined();
  });
});

describe('forgot and reset password', () => {
  async function requestLink(email: string) {
    const res = await new Client(t).post('/api/forgot-password', { email });
    expect(res.statusCode).toBe(200);
    const mail = await smtp.waitFor(email, { subject: /Reset/ });
    const link = /http:\/\/pigeonhole\.test\/reset-password\?token=([\w-]+)/.exec(mail.text);
    expect(link).not.toBeNull();
    smtp.received.splice(smtp.received.indexOf(mail), 1);
    return link![1]!;
  }

  it('emails a single-use link over SMTP that sets a new password and ends every session', async () => {
    const c = new Client(t);
    const account = await c.register();
    const token = await requestLink(account.email);
    const reset = await new Client(t).post('/api/reset-password', { token, password: 'a-new-password' });
    expect(reset.statusCode).toBe(200);
    expect((await c.get('/api/auth/user')).statusCode).toBe(401);
    expect(
      (await new Client(t).post('/api/login', { username: account.email, password: 'a-new-password' })).statusCode,
    ).toBe(200);
    const reuse = await new Client(t).post('/api/reset-password', { token, password: 'another-password' });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toMatch(/invalid or has expired/);
  });

  it('builds the link from APP_URL, never from the Host header the caller sends', async () => {
    const account = await new Client(t).register();
    const res = await new Client(t).post(
      '/api/forgot-password',
      { email: account.email },
      { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    );
    expect(res.statusCode).toBe(200);
    const mail = await smtp.waitFor(account.email, { subject: /Reset/ });
    smtp.received.splice(smtp.received.indexOf(mail), 1);
    expect(mail.text).toContain('http://pigeonhole.test/reset-password?token=');
    expect(mail.text).not.toContain('evil.example');
  });

  it('without APP_URL (development) links to the listening address, whatever the Host header', async () => {
    const dev = await createTestApp({ SMTP_URL: smtp.url, HOST: '127.0.0.1', PORT: '5999' });
    workers.start(dev);
    const c = new Client(dev);
    const account = await c.register();
    await new Client(dev).post('/api/forgot-password', { email: account.email }, { host: 'evil.example' });
    const mail = await smtp.waitFor(account.email, { subject: /Reset/ });
    smtp.received.splice(smtp.received.indexOf(mail), 1);
    expect(mail.text).toContain('http://127.0.0.1:5999/reset-password?token=');
    expect(mail.text).not.toContain('evil.example');
  });

  it('ends every other reset link when one is used', async () => {
    const account = await new Client(t).register();
    const first = await requestLink(account.email);
    const second = await requestLink(account.email);
    const used = await new Client(t).post('/api/reset-password', { token: second, password: 'chosen-by-owner' });
    expect(used.statusCode).toBe(200);
    const stale = await new Client(t).post('/api/reset-password', { token: first, password: 'chosen-by-thief' });
    expect(stale.statusCode).toBe(400);
    expect(
      (await new Client(t).post('/api/login', { username: account.email, password: 'chosen-by-owner' })).statusCode,
    ).toBe(200);
  });

  it('ends every reset link and every other session when the password is changed', async () => {
    const c = new Client(t);
    const account = await c.register();
    const elsewhere = new Client(t);
    await elsewhere.post('/api/login', { username: account.email, password: account.password });
    const token = await requestLink(account.email);
    const changed = await c.post('/api/change-password', {
      currentPassword: account.password,
      newPassword: 'changed-by-owner',
    });
    expect(changed.statusCode).toBe(200);
    expect((await elsewhere.get('/api/auth/user')).statusCode).toBe(401);
    expect((await c.get('/api/auth/user')).statusCode).toBe(200);
    const stale = await new Client(t).post('/api/reset-password', { token, password: 'chosen-by-thief' });
    expect(stale.statusCode).toBe(400);
  });

  it('refuses an expired token', async () => {
    const account = await new Client(t).register();
    const token = await requestLink(account.email);
    await t.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, account.user.id));
    const res = await new Client(t).post('/api/reset-password', { token, password: 'a-new-password' });
    expect(res.statusCode).toBe(400);
    expect(
      (await new Client(t).post('/api/login', { username: account.email, password: account.password })).statusCode,
    ).toBe(200);
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const known = await new Client(t).register();
    const a = await new Client(t).post('/api/forgot-password', { email: 'nobody@example.com' });
    const b = await new Client(t).post('/api/forgot-password', { email: known.email });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
    await smtp.waitFor(known.email, { subject: /Reset/ });
    expect(smtp.received.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
  });

  it('validates inputs with the specification messages', async () => {
    const noEmail = await new Client(t).post('/api/forgot-password', { email: '' });
    expect(noEmail.json().message).toBe('Email is required');
    const short = await new Client(t).post('/api/reset-password', { token: 'x', password: 'short' });
    expect(short.json().message).toBe('Password must be at least 8 characters long');
    const noToken = await new Client(t).post('/api/reset-password', { token: '', password: 'long-enough' });
    expect(noToken.json().message).toBe('Invalid or missing reset token.');
  });
});

describe('concurrent registrations', () => {
  it.each([
    [
      'email',
      (a: ReturnType<typeof newAccount>) => ({ ...newAccount(), email: a.email }),
      'An account with this email already exists',
    ],
    [
      'username',
      (a: ReturnType<typeof newAccount>) => ({ ...newAccount(), username: a.username }),
      'This username is already taken',
    ],
  ] as const)('let exactly one of two racing sign-ups with the same %s through', async (_field, rival, message) => {
    const account = newAccount();
    const results = await Promise.all([
      new Client(t).post('/api/register', account),
      new Client(t).post('/api/register', rival(account)),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().message).toBe(message);
  });
});
