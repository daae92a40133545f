import crypto from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { renderSVG } from 'uqr';
import { RECOVERY_CODE_COUNT, TWO_FACTOR_MESSAGES, type TwoFactorStatus } from '../../../contract';
import type { Deps } from '../../context';
import type { DbOrTx } from '../../db/client';
import { badRequest, conflict, tooManyRequests, unauthorized } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import * as rateLimiter from '../../lib/rate-limiter';
import { addMs, iso } from '../../lib/time';
import { PLATFORM_MESSAGE_EVENTS, queueMessage } from '../../lib/outbox';
import { hashToken, newToken } from '../../lib/tokens';
import { logRepeatedTwoFactorFailures } from '../audit/platform-events';
import { sessionsRepository } from './sessions.repository';
import { twoFactorRepository } from './two-factor.repository';
import { usersRepository, type UserRow } from './users.repository';

const ISSUER = 'Pigeonhole';
const PERIOD_SECONDS = 30;
/** A code of the step before or after the current one passes too (a phone clock a little off). */
const WINDOW_STEPS = 1;
const CHALLENGE_TTL_MS = 5 * 60_000;
/**
 * Wrong codes an account may send in 15 minutes, at sign-in and in settings apart: someone holding
 * the password and guessing at sign-in never locks the signed-in owner out of their settings.
 * With three codes valid at a time, 10 is a 1 in 33,000 chance per window.
 */
const CODE_ATTEMPTS = 10;
const CODE_WINDOW_SECONDS = 15 * 60;
/**
 * And at sign-in, a day's cap, so the 15-minute windows do not add up forever (960 guesses a day,
 * about one chance in 350): 30 a day is one in 11,000 a day. The owner is emailed when either
 * limit is first reached, and a password reset clears both (decision 029).
 */
const SIGN_IN_CODE_ATTEMPTS_PER_DAY = 30;
const DAY_SECONDS = 24 * 3600;
const codeKeys = (userId: string) => ({
  signIn: `two-factor:sign-in:${userId}`,
  signInDay: `two-factor:sign-in-day:${userId}`,
  settings: `two-factor:settings:${userId}`,
});

/** Clears the sign-in code counters: the password that let a guesser reach the code step changed. */
export async function forgetSignInCodeAttempts(db: DbOrTx, userId: string) {
  const keys = codeKeys(userId);
  await rateLimiter.reset(db, keys.signIn);
  await rateLimiter.reset(db, keys.signInDay);
}

/** Recovery codes: 12 characters of 31 letters and digits without look-alikes (59 bits each). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function totp(secretBase32: string, label: string) {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: 12 }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8).join('')}`;
}

/** The stored form of a recovery code: as typed, without case, dashes or spaces; bound to its user. */
function recoveryCodeHash(userId: string, code: string): string {
  return hashToken(`${userId}:${code.toLowerCase().replace(/[\s-]/g, '')}`);
}

/**
 * Optional TOTP two-factor sign-in (RFC 6238, the codes of any authenticator app) with single-use
 * recovery codes. The secret is stored encrypted with SECRETS_KEY; each code works once.
 */
export function createTwoFactorService(deps: Deps) {
  const { db, secrets } = deps;

  async function userOf(userId: string): Promise<UserRow> {
    const user = await usersRepository.findById(db, userId);
    if (!user) throw unauthorized();
    return user;
  }

  /**
   * Two-factor set-up waits for a proven address: an account registered with someone else's
   * address must not bind its own authenticator to it before the inbox owner can claim it.
   */
  function requireVerifiedEmail(user: UserRow) {
    if (!user.emailVerifiedAt) throw conflict(TWO_FACTOR_MESSAGES.verifyEmailFirst, 'email_not_verified');
  }

  async function checkPassword(user: UserRow, password: string) {
    if (!(await verifyPassword(user.password, password))) {
      throw badRequest(TWO_FACTOR_MESSAGES.wrongPassword, 'wrong_password');
    }
  }

  /**
   * Past a limit at sign-in, the first refusal of the window tells the owner (someone holds their
   * password) and the platform log.
   */
  async function reportSignInGuessing(user: UserRow, attempts: number, windowSeconds: number) {
    await logRepeatedTwoFactorFailures(db, { userId: user.id, email: user.email, attempts, windowSeconds });
    const name = user.firstName ?? user.username;
    // Through the outbox (decision 054): the worker sends it, and retries while SMTP is away.
    await queueMessage(db, {
      event: PLATFORM_MESSAGE_EVENTS.accountNotice,
      channel: 'email',
      kind: 'two_factor_guessing',
      to: user.email,
      subject: 'Wrong two-factor codes on your Pigeonhole account',
      text:
        `Hello ${name},\n\nSomeone signed in to your Pigeonhole account with your password and then entered ` +
        `${attempts} wrong two-factor codes, so we stopped accepting codes for a while.\n\n` +
        `If it was not you, your password is known to someone else: reset it now from the sign-in page ` +
        `("Forgot password?"). A reset ends every sign-in in progress.\n`,
    });
  }

  /** 429 when the account has sent too many wrong codes for this purpose; reports sign-in guessing once per window. */
  async function checkCodeLimits(user: UserRow, purpose: 'sign-in' | 'settings') {
    const keys = codeKeys(user.id);
    if (purpose === 'settings') {
      const limited = await rateLimiter.hit(db, keys.settings, CODE_ATTEMPTS, CODE_WINDOW_SECONDS);
      if (!limited.allowed) throw tooManyRequests(TWO_FACTOR_MESSAGES.tooMany, limited.retryAfterSeconds);
      return;
    }
    const day = await rateLimiter.hit(db, keys.signInDay, SIGN_IN_CODE_ATTEMPTS_PER_DAY, DAY_SECONDS);
    if (!day.allowed) {
      if (day.count === SIGN_IN_CODE_ATTEMPTS_PER_DAY + 1) {
        await reportSignInGuessing(user, SIGN_IN_CODE_ATTEMPTS_PER_DAY, DAY_SECONDS);
      }
      throw tooManyRequests(TWO_FACTOR_MESSAGES.tooManyToday, day.retryAfterSeconds);
    }
    const window = await rateLimiter.hit(db, keys.signIn, CODE_ATTEMPTS, CODE_WINDOW_SECONDS);
    if (!window.allowed) {
      // A refused attempt is not a guess: it does not use up the day's count.
      await rateLimiter.undo(db, keys.signInDay);
      if (window.count === CODE_ATTEMPTS + 1) await reportSignInGuessing(user, CODE_ATTEMPTS, CODE_WINDOW_SECONDS);
      throw tooManyRequests(TWO_FACTOR_MESSAGES.tooMany, window.retryAfterSeconds);
    }
  }

  /**
   * Accepts a code from the app (each 30-second step once) or, where allowed, an unused recovery
   * code (spent by this call). Wrong codes count toward the limits of the purpose; a right one
   * clears its 15-minute count (the day's count stays: the owner's sign-in does not renew a
   * guesser's allowance).
   */
  async function checkCode(
    user: UserRow,
    code: string,
    options: { recovery: boolean; purpose: 'sign-in' | 'settings' },
  ) {
    await checkCodeLimits(user, options.purpose);
    let passed = false;
    if (/^\d{6}$/.test(code) && user.twoFactorSecret) {
      const now = Date.now();
      const delta = totp(secrets.decrypt(user.twoFactorSecret), user.email).validate({
        token: code,
        timestamp: now,
        window: WINDOW_STEPS,
      });
      if (delta !== null) {
        const step = Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
        passed = await twoFactorRepository.claimStep(db, user.id, step);
      }
    } else if (options.recovery) {
      passed = await twoFactorRepository.consumeRecoveryCode(db, user.id, recoveryCodeHash(user.id, code));
    }
    if (!passed) throw badRequest(TWO_FACTOR_MESSAGES.invalidCode, 'invalid_code');
    const keys = codeKeys(user.id);
    if (options.purpose === 'sign-in') {
      await rateLimiter.reset(db, keys.signIn);
      await rateLimiter.undo(db, keys.signInDay);
    } else {
      await rateLimiter.reset(db, keys.settings);
    }
  }

  /** New recovery codes replace the old ones; answered once, stored only hashed. */
  async function issueRecoveryCodes(userId: string, tx: DbOrTx = db): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await twoFactorRepository.replaceRecoveryCodes(
      tx,
      userId,
      codes.map((c) => recoveryCodeHash(userId, c)),
    );
    return codes;
  }

  /**
   * A change to how the account signs in is told to its owner (someone else may have made it):
   * queued in the transaction of the change (decision 054).
   */
  async function tellOwner(tx: DbOrTx, user: UserRow, change: string) {
    const name = user.firstName ?? user.username;
    await queueMessage(tx, {
      event: PLATFORM_MESSAGE_EVENTS.accountNotice,
      channel: 'email',
      kind: 'two_factor_changed',
      to: user.email,
      subject: `Two-factor authentication ${change} on your Pigeonhole account`,
      text:
        `Hello ${name},\n\nTwo-factor authentication was ${change} on your Pigeonhole account just now.\n` +
        `If it was not you, reset your password at once and tell your administrator.\n`,
    });
  }

  return {
    async status(userId: string): Promise<TwoFactorStatus> {
      const user = await userOf(userId);
      const enabled = user.twoFactorEnabledAt !== null;
      return {
        enabled,
        enabledAt: user.twoFactorEnabledAt ? iso(user.twoFactorEnabledAt) : null,
        recoveryCodesLeft: enabled ? await twoFactorRepository.recoveryCodesLeft(db, userId) : 0,
      };
    },

    /** A new secret, not in force until enable proves the app holds it (a second setup replaces it). */
    async setup(userId: string, password: string) {
      const user = await userOf(userId);
      if (user.twoFactorEnabledAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled, 'already_enabled');
      requireVerifiedEmail(user);
      await checkPassword(user, password);
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      await usersRepository.update(db, userId, { twoFactorSecret: secrets.encrypt(secret), twoFactorLastStep: null });
      const otpauthUrl = totp(secret, user.email).toString();
      return { secret, otpauthUrl, qrCodeSvg: renderSVG(otpauthUrl, { border: 2 }) };
    },

    /** Turns it on with a code from the app; other sessions end (one opened before may be someone else's). */
    async enable(userId: string, sessionId: string, code: string): Promise<string[]> {
      const user = await userOf(userId);
      if (user.twoFactorEnabledAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled, 'already_enabled');
      requireVerifiedEmail(user);
      if (!user.twoFactorSecret) throw badRequest(TWO_FACTOR_MESSAGES.setUpFirst, 'not_set_up');
      await checkCode(user, code, { recovery: false, purpose: 'settings' });
      const codes = await db.transaction(async (tx) => {
        await usersRepository.update(tx, userId, { twoFactorEnabledAt: new Date() });
        await sessionsRepository.deleteForUser(tx, userId, sessionId);
        await tellOwner(tx, user, 'turned on');
        return issueRecoveryCodes(userId, tx);
      });
      return codes;
    },

    async disable(userId: string, password: string, code: string) {
      const user = await userOf(userId);
      if (!user.twoFactorEnabledAt) throw conflict(TWO_FACTOR_MESSAGES.notEnabled, 'not_enabled');
      await checkPassword(user, password);
      await checkCode(user, code, { recovery: true, purpose: 'settings' });
      await db.transaction(async (tx) => {
        await twoFactorRepository.clear(tx, userId);
        await tellOwner(tx, user, 'turned off');
      });
    },

    async regenerateRecoveryCodes(userId: string, code: string): Promise<string[]> {
      const user = await userOf(userId);
      if (!user.twoFactorEnabledAt) throw conflict(TWO_FACTOR_MESSAGES.notEnabled, 'not_enabled');
      await checkCode(user, code, { recovery: true, purpose: 'settings' });
      return issueRecoveryCodes(userId);
    },

    /** The first step of a sign-in passed (the password): a short-lived challenge for the code. */
    async openChallenge(userId: string) {
      const challenge = newToken();
      const expiresAt = addMs(new Date(), CHALLENGE_TTL_MS);
      await twoFactorRepository.insertChallenge(db, userId, hashToken(challenge), expiresAt);
      return { twoFactorRequired: true as const, challenge, expiresAt: iso(expiresAt) };
    },

    /** The second step: the challenge's user when the code is right (the challenge is then spent). */
    async passChallenge(challenge: string, code: string): Promise<UserRow> {
      const expired = () => badRequest(TWO_FACTOR_MESSAGES.challengeExpired, 'challenge_expired');
      const found = await twoFactorRepository.findChallenge(db, hashToken(challenge));
      if (!found) throw expired();
      const user = await userOf(found.userId);
      await checkCode(user, code, { recovery: true, purpose: 'sign-in' });
      if (!(await twoFactorRepository.consumeChallenge(db, found.id))) throw expired();
      return user;
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

export const requiresTwoFactor = (user: UserRow) => user.twoFactorEnabledAt !== null;
