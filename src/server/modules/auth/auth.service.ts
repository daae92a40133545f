import type { z } from 'zod';
import {
  EMAIL_VERIFICATION_MESSAGES,
  INVITATION_MESSAGES,
  type ChangePasswordBody,
  type InvitationJoinOutcome,
  type LoginTwoFactorBody,
  type RegisterBody,
  type ResetPasswordBody,
  type UpdateLanguageBody,
  type UpdateUserBody,
  type User,
  type VerifyEmailBody,
} from '../../../contract';
import type { Deps } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { violatedUniqueConstraint } from '../../lib/pg-errors';
import * as rateLimiter from '../../lib/rate-limiter';
import { logRepeatedSignInFailures } from '../audit/platform-events';
import { hashToken, newToken } from '../../lib/tokens';
import { addMs, iso } from '../../lib/time';
import { publishSessionsEnded } from '../../lib/live-events';
import { LINK_TOKEN_PLACEHOLDER, PLATFORM_MESSAGE_EVENTS, queueMessage } from '../../lib/outbox';
import { joinWithInvitation } from '../invitations/invitations.service';
import { emailVerificationRepository } from './email-verification.repository';
import { passwordResetRepository } from './password-reset.repository';
import { sessionsRepository } from './sessions.repository';
import { usersRepository, type UserRow } from './users.repository';
import { forgetSignInCodeAttempts, requiresTwoFactor, type TwoFactorService } from './two-factor.service';
import { twoFactorRepository } from './two-factor.repository';
import { setSuperAdminFlag } from './super-admin-flag';

/** Verification emails one account may ask for in an hour (beside the one sent at registration). */
const VERIFY_RESENDS_PER_HOUR = 5;
/** Past the per-account limit, the longest wait between two sign-in attempts for that account. */
const MAX_LOGIN_SPACING_SECONDS = 60;
const LOGIN_SLOWED = 'Too many login attempts. Please try again later.';
export const FORGOT_PASSWORD_REPLY = 'If an account exists for that email, a password reset link has been sent.';

export type ClientInfo = { ip: string; userAgent?: string };
export type NewSession = { token: string; expire: Date };

/** A join refused while signing in: its code as the reply's invitation status. */
const JOIN_FAILURES: Record<string, InvitationJoinOutcome['status']> = {
  invalid_invitation: 'invalid',
  email_mismatch: 'email_mismatch',
  already_member: 'already_member',
  seat_limit: 'seat_limit',
  trial_expired: 'trial_expired',
};

/** An invitation token sent with register or login; blank means none. */
const tokenOf = (token: string | null | undefined) => (token?.trim() ? token.trim() : undefined);

export function toUserDto(u: UserRow): User {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    profileImageUrl: u.profileImageUrl,
    isSuperAdmin: u.isSuperAdmin,
    emailVerified: u.emailVerifiedAt !== null,
    language: u.language ?? null,
    createdAt: iso(u.createdAt),
    updatedAt: iso(u.updatedAt),
  };
}

/**
 * A new session of a user who passed every step of a sign-in: the same for a password sign-in and
 * a single sign-on (sso's completeSsoSignIn), so both follow one set of session rules.
 */
export async function openUserSession(
  { db, config }: { db: DbOrTx; config: Deps['config'] },
  userId: string,
  client: ClientInfo,
): Promise<NewSession> {
  const token = newToken();
  const expire = addMs(new Date(), config.sessionTtlMs);
  await sessionsRepository.insert(db, hashToken(token), userId, expire, client);
  return { token, expire };
}

/**
 * What auth asks of the modules above it, handed over by app.ts (auth may not import them):
 * single sign-on's "Require single sign-on" (decision 059) refuses a password to an address.
 */
export type PasswordPolicy = {
  /** The refusal's words when this account (or a new one for this address) may not use a password. */
  passwordRefusal?: (user: { id?: string; email: string }) => Promise<string | undefined>;
};

export function createAuthService(deps: Deps, twoFactor: TwoFactorService, policy: PasswordPolicy = {}) {
  const { db, config, log, publicUrl } = deps;

  const openSession = (userId: string, client: ClientInfo) => openUserSession(deps, userId, client);

  /**
   * SUPER_ADMIN_EMAILS lists this address and the role is not granted yet: it waits for the
   * password set through a link emailed to the address (decision 029). Verifying the address is
   * not enough: whoever registered it first chose the password and may hold its two-factor app.
   */
  const awaitsSuperAdminClaim = (user: UserRow) => !user.isSuperAdmin && config.superAdminEmails.includes(user.email);

  async function joinOnSignIn(user: UserRow, token: string): Promise<InvitationJoinOutcome> {
    try {
      const joined = await db.transaction((tx) => joinWithInvitation(tx, user, token));
      return { status: 'joined', organizationId: joined.organizationId };
    } catch (err) {
      const status = err instanceof AppError && err.code ? JOIN_FAILURES[err.code] : undefined;
      if (err instanceof AppError && status) {
        const { organizationId } = err as AppError & { organizationId?: string };
        return { status, message: err.message, ...(organizationId ? { organizationId } : {}) };
      }
      log.error({ err }, 'joining through an invitation while signing in failed');
      return { status: 'failed', message: INVITATION_MESSAGES.joinFailed };
    }
  }

  /**
   * Queues the email with a single-use link that proves the address (decision 054: the worker
   * sends it and mints the link's token as it does; the caller never waits on SMTP).
   */
  async function sendVerificationLink(tx: DbOrTx, user: UserRow) {
    const link = `${publicUrl()}/verify-email?token=${LINK_TOKEN_PLACEHOLDER}`;
    const name = user.firstName ?? user.username;
    await queueMessage(tx, {
      event: PLATFORM_MESSAGE_EVENTS.verifyEmail,
      channel: 'email',
      kind: 'verify_email',
      mint: { kind: 'verify_email', userId: user.id },
      to: user.email,
      subject: 'Verify your Pigeonhole email address',
      text:
        `Hello ${name},\n\nPlease confirm that this is your email address by opening this link within 48 hours:\n\n` +
        `${link}\n\nIf you did not create a Pigeonhole account, ignore this email.\n`,
      html:
        `<p>Hello ${escapeHtml(name)},</p><p>Please confirm that this is your email address.</p>` +
        `<p><a href="${escapeHtml(link)}">Verify my email address</a> (the link works once, within 48 hours).</p>` +
        `<p>If you did not create a Pigeonhole account, ignore this email.</p>`,
    });
  }

  /**
   * Queues the email with a single-use link that sets the account's password: a reset asked for
   * on the sign-in page, or the claim of a SUPER_ADMIN_EMAILS address once it is verified (valid
   * as long as a verification link, since its owner did not ask for it just now). The worker
   * mints the token as it sends (account-links.ts, decision 054).
   */
  async function sendPasswordLink(tx: DbOrTx, user: UserRow, purpose: 'reset' | 'super_admin_claim') {
    const claim = purpose === 'super_admin_claim';
    const link = `${publicUrl()}/reset-password?token=${LINK_TOKEN_PLACEHOLDER}`;
    const name = user.firstName ?? user.username;
    const within = claim ? '48 hours' : 'one hour';
    // A listed address's first password set through a link grants the role: the email says so.
    const grants = awaitsSuperAdminClaim(user)
      ? 'This address is listed as a platform administrator: choosing the password through this link ' +
        'makes this account the platform administrator, signs out every other device and turns off any ' +
        'two-factor authentication set up on it before.'
      : '';
    await queueMessage(tx, {
      event: PLATFORM_MESSAGE_EVENTS.passwordLink,
      channel: 'email',
      kind: claim ? 'super_admin_claim' : 'password_reset',
      mint: { kind: 'password', userId: user.id, purpose },
      to: user.email,
      subject: claim ? 'Finish setting up platform administrator access' : 'Reset your Pigeonhole password',
      text:
        `Hello ${name},\n\n` +
        (claim
          ? 'Your address is verified. To finish, choose the password of your Pigeonhole account.\n'
          : 'Someone asked to reset the password of your Pigeonhole account.\n') +
        (grants ? `${grants}\n` : '') +
        `Open this link within ${within} to choose a new password:\n\n${link}\n\n` +
        `If it was not you, ignore this email; your password stays as it is.\n`,
      html:
        `<p>Hello ${escapeHtml(name)},</p>` +
        (claim
          ? '<p>Your address is verified. To finish, choose the password of your Pigeonhole account.</p>'
          : '<p>Someone asked to reset the password of your Pigeonhole account.</p>') +
        (grants ? `<p>${escapeHtml(grants)}</p>` : '') +
        `<p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, within ${within}).</p>` +
        `<p>If it was not you, ignore this email; your password stays as it is.</p>`,
    });
  }

  /** The session of a sign-in that passed every step, and the join of its invitation link if any. */
  async function signIn(user: UserRow, client: ClientInfo, invitationToken?: string | null) {
    const session = await openSession(user.id, client);
    const token = tokenOf(invitationToken);
    const invitation = token ? await joinOnSignIn(user, token) : undefined;
    return { user: toUserDto(user), session, invitation };
  }

  return {
    /**
     * With an invitation token the account, the membership (the invited role) and the invitation's
     * use commit together: an invalid token (400 invalid_invitation), another email (400
     * email_mismatch), no free seat (402 seat_limit) or an expired trial (402 trial_expired) create
     * nothing.
     */
    async register(input: z.infer<typeof RegisterBody>, client: ClientInfo) {
      // Before any lookup: a script cannot mass-create accounts or test thousands of emails.
      const limited = await rateLimiter.hit(db, `register:ip:${client.ip}`, config.registerRateLimitPerIp, 3600);
      if (!limited.allowed) {
        throw tooManyRequests(
          'Too many accounts created from this address. Please try again later.',
          limited.retryAfterSeconds,
        );
      }
      if (await usersRepository.findByEmail(db, input.email)) {
        throw conflict('An account with this email already exists', 'email_taken');
      }
      // An address under "Require single sign-on" gets its account through the provider.
      const refusal = await policy.passwordRefusal?.({ email: input.email });
      if (refusal) throw forbidden(refusal, 'sso_required');
      if (await usersRepository.usernameTaken(db, input.username)) {
        throw conflict('This username is already taken', 'username_taken');
      }
      const invitationToken = tokenOf(input.invitationToken);
      const password = await hashPassword(input.password);
      const created = await db.transaction(async (tx) => {
        let user: UserRow;
        try {
          user = await usersRepository.insert(tx, {
            email: input.email,
            username: input.username,
            firstName: input.firstName ?? null,
            lastName: input.lastName ?? null,
            password,
          });
        } catch (err) {
          // Two registrations racing for the same email or username: the unique indexes decide.
          const constraint = violatedUniqueConstraint(err);
          if (constraint === 'users_username_lower_unique')
            throw conflict('This username is already taken', 'username_taken');
          if (constraint !== undefined) throw conflict('An account with this email already exists', 'email_taken');
          throw err;
        }
        const joined = invitationToken ? await joinWithInvitation(tx, user, invitationToken) : undefined;
        // The invitation went to this address and it was followed: the address is proven.
        if (joined) user = (await usersRepository.update(tx, user.id, { emailVerifiedAt: new Date() })) ?? user;
        // The account's first email is queued with it (decision 054): no account without it.
        if (!user.emailVerifiedAt) await sendVerificationLink(tx, user);
        // Proven by the invitation; the role still waits for the password set through a link.
        else if (awaitsSuperAdminClaim(user)) await sendPasswordLink(tx, user, 'super_admin_claim');
        return { user, joined };
      });
      const user = created.user;
      let invitation: InvitationJoinOutcome | undefined;
      if (created.joined) {
        invitation = { status: 'joined', organizationId: created.joined.organizationId };
      }
      return { user: toUserDto(user), session: await openSession(user.id, client), invitation };
    },

    /**
     * With an invitation token the user, once signed in, joins its organization too. A refused
     * join never fails the sign-in: its outcome is in `invitation`.
     */
    async login(login: string, password: string, client: ClientInfo, invitationToken?: string | null) {
      const { perAccount, perIp, windowSeconds } = config.loginRateLimit;
      const typed = login.toLowerCase();
      const failures = { login: typed, ip: client.ip, windowSeconds };
      // The address first: a guesser working from one address is stopped outright (it locks only itself).
      const byIp = await rateLimiter.hit(db, `login:ip:${client.ip}`, perIp, windowSeconds);
      if (!byIp.allowed) {
        // The first refusal of a window goes to the platform log: an address under attack.
        if (byIp.count === perIp + 1) {
          await logRepeatedSignInFailures(db, { ...failures, scope: 'address', attempts: perIp });
        }
        throw tooManyRequests(LOGIN_SLOWED, byIp.retryAfterSeconds);
      }
      // Then the account, whichever name was typed (email and username share one count), so a
      // spread-out guesser gets no more tries by switching names. An unknown name is counted the
      // same way, so the replies do not tell which accounts exist.
      const found = await usersRepository.findByLogin(db, login);
      const accountKey = found ? `login:account:${found.id}` : `login:name:${typed}`;
      const byAccount = await rateLimiter.hit(db, accountKey, perAccount, windowSeconds);
      if (!byAccount.allowed) {
        if (byAccount.count === perAccount + 1) {
          await logRepeatedSignInFailures(db, { ...failures, scope: 'account', attempts: perAccount });
        }
        // Slowed, never locked: past the limit one attempt is let through per interval, doubling
        // from 1 s to a minute, so a stranger cannot keep the owner out for longer than that.
        // The n-th attempt past the limit waits 2^(n-2) s after the one before it (the first at once).
        const over = byAccount.count - perAccount;
        const spacing = Math.min(2 ** Math.max(over - 2, 0), MAX_LOGIN_SPACING_SECONDS);
        const turn = await rateLimiter.hit(db, `${accountKey}:spacing`, 1, spacing);
        if (!turn.allowed) {
          // Only attempts let through count, so the interval Retry-After names is the one that holds.
          await rateLimiter.undo(db, accountKey);
          throw tooManyRequests(LOGIN_SLOWED, turn.retryAfterSeconds);
        }
      }
      if (!(await verifyPassword(found?.password, password)) || !found) {
        throw unauthorized('Invalid username or password');
      }
      await Promise.all([rateLimiter.reset(db, accountKey), rateLimiter.reset(db, `${accountKey}:spacing`)]);
      // Only after the right password: the refusal does not tell a guesser which accounts exist.
      const refusal = await policy.passwordRefusal?.(found);
      if (refusal) throw forbidden(refusal, 'sso_required');
      // The password was right; with two-factor on, no session until the code is given too.
      if (requiresTwoFactor(found)) return { twoFactor: await twoFactor.openChallenge(found.id) };
      return signIn(found, client, invitationToken);
    },

    /** The second step of a sign-in with two-factor on: the challenge of the first and a code. */
    async loginWithCode(input: LoginTwoFactorBody, client: ClientInfo) {
      const user = await twoFactor.passChallenge(input.challenge, input.code);
      return signIn(user, client, input.invitationToken);
    },

    /** Ends the session; the user's live desk streams re-check theirs at its commit (decision 043). */
    async logout(sessionId: string, userId: string) {
      await db.transaction(async (tx) => {
        await sessionsRepository.delete(tx, sessionId);
        await publishSessionsEnded(tx, userId);
      });
    },

    async updateName(userId: string, input: z.infer<typeof UpdateUserBody>) {
      const user = await usersRepository.update(db, userId, input);
      if (!user) throw unauthorized();
      return toUserDto(user);
    },

    async updateLanguage(userId: string, input: z.infer<typeof UpdateLanguageBody>) {
      const user = await usersRepository.update(db, userId, { language: input.language });
      if (!user) throw unauthorized();
      return toUserDto(user);
    },

    async changePassword(userId: string, sessionId: string, input: z.infer<typeof ChangePasswordBody>) {
      const user = await usersRepository.findById(db, userId);
      if (!user || !(await verifyPassword(user.password, input.currentPassword))) {
        throw badRequest('Current password is incorrect', 'wrong_password');
      }
      const password = await hashPassword(input.newPassword);
      await db.transaction(async (tx) => {
        await usersRepository.update(tx, userId, { password });
        // Other devices signed in with the old password are signed out; this one stays. Reset
        // links and two-factor challenges opened before would otherwise still let someone in.
        await sessionsRepository.deleteForUser(tx, userId, sessionId);
        await publishSessionsEnded(tx, userId);
        await passwordResetRepository.consumeAllFor(tx, userId);
        await twoFactorRepository.endChallengesFor(tx, userId);
      });
    },

    /**
     * Always the same answer in the same time, so the call cannot tell who has an account: the
     * reply leaves once the rate limit is checked; the lookup and the email's row in the outbox
     * follow in the background (a failure is logged, never shown to the asker), and the worker
     * sends it.
     */
    async forgotPassword(email: string, client: ClientInfo) {
      const limited = await rateLimiter.hit(db, `forgot:ip:${client.ip}`, 20, 3600);
      if (!limited.allowed)
        throw tooManyRequests('Too many requests. Please try again later.', limited.retryAfterSeconds);
      void usersRepository
        .findByEmail(db, email)
        .then((user) => user && sendPasswordLink(db, user, 'reset'))
        .catch((err: unknown) => log.error({ err }, 'password reset failed'));
    },

    /**
     * Follows the emailed link: proves the address. A SUPER_ADMIN_EMAILS address gets a second
     * link that sets the password, which alone grants the role (decision 029); `superAdminClaim`
     * says it was sent.
     */
    async verifyEmail(input: z.infer<typeof VerifyEmailBody>): Promise<{ superAdminClaim: boolean }> {
      return db.transaction(async (tx) => {
        const token = await emailVerificationRepository.consume(tx, hashToken(input.token));
        if (!token) throw badRequest(EMAIL_VERIFICATION_MESSAGES.invalid, 'invalid_token');
        await usersRepository.markEmailVerified(tx, token.userId);
        await emailVerificationRepository.consumeAllFor(tx, token.userId);
        const user = await usersRepository.findById(tx, token.userId);
        if (!user || !awaitsSuperAdminClaim(user)) return { superAdminClaim: false };
        // Queued with the verification it follows from; the worker retries it while SMTP is away.
        await sendPasswordLink(tx, user, 'super_admin_claim');
        return { superAdminClaim: true };
      });
    },

    /** A new link for a signed-in account whose address is not proven yet; a few an hour. */
    async resendVerification(userId: string) {
      const user = await usersRepository.findById(db, userId);
      if (!user) throw unauthorized();
      if (user.emailVerifiedAt) throw conflict(EMAIL_VERIFICATION_MESSAGES.alreadyVerified, 'already_verified');
      const limited = await rateLimiter.hit(db, `verify:user:${userId}`, VERIFY_RESENDS_PER_HOUR, 3600);
      if (!limited.allowed) throw tooManyRequests(EMAIL_VERIFICATION_MESSAGES.tooMany, limited.retryAfterSeconds);
      await sendVerificationLink(db, user);
    },

    /**
     * Sets the password through an emailed link: every session, other link and two-factor
     * challenge of the account ends. For a SUPER_ADMIN_EMAILS address not granted yet, the link
     * proved the inbox, so it also grants the role, turns off any two-factor set up before (it may
     * be the app of whoever registered the address first) and marks the address verified.
     */
    async resetPassword(input: z.infer<typeof ResetPasswordBody>) {
      const password = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const token = await passwordResetRepository.consume(tx, hashToken(input.token));
        if (!token)
          throw badRequest('This reset link is invalid or has expired. Please request a new one.', 'invalid_token');
        const user = await usersRepository.update(tx, token.userId, { password });
        await sessionsRepository.deleteForUser(tx, token.userId);
        await publishSessionsEnded(tx, token.userId);
        // The other links sent before this one end with it, and so do sign-ins waiting for a code.
        await passwordResetRepository.consumeAllFor(tx, token.userId);
        await twoFactorRepository.endChallengesFor(tx, token.userId);
        await forgetSignInCodeAttempts(tx, token.userId);
        if (user && awaitsSuperAdminClaim(user)) {
          await twoFactorRepository.clear(tx, user.id);
          await usersRepository.markEmailVerified(tx, user.id);
          await setSuperAdminFlag(tx, user.id, true, { via: 'inbox' });
        }
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
export type SignedIn = { user: User; session: NewSession; invitation?: InvitationJoinOutcome };

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
