import crypto from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { renderSVG } from 'uqr';
import { RECOVERY_CODE_COUNT, TWO_FACTOR_MESSAGES, type TwoFactorStatus } from '../../../contract';
import type { Deps } from '../../context';
import type { DbOrTx } from '../../db/client';
import { transactionForgetting } from '../../caches';
import { badRequest, conflict, tooManyRequests, unauthorized } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import * as rateLimiter from '../../lib/rate-limiter';
import { addMs, iso } from '../../lib/time';
import { hashToken, newToken } from '../../lib/tokens';
import { sessionsRepository } from './sessions.repository';
import { twoFactorRepository } from './two-factor.repository';
import { usersRepository, type UserRow } from './users.repository';

const ISSUER = 'Pigeonhole';
const PERIOD_SECONDS = 30;
/** A code of the step before or after the current one passes too (a phone clock a little off). */
const WINDOW_STEPS = 1;
const CHALLENGE_TTL_MS = 5 * 60_000;
/**
 * Wrong codes an account may send in 15 minutes (at sign-in and in settings together). With three
 * codes valid at a time that is a 1 in 33,000 chance per window for a guesser holding the password.
 */
const CODE_ATTEMPTS = 10;
const CODE_WINDOW_SECONDS = 15 * 60;
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
  const { db, secrets, caches, mailer, log } = deps;

  async function userOf(userId: string): Promise<UserRow> {
    const user = await usersRepository.findById(db, userId);
    if (!user) throw unauthorized();
    return user;
  }

  async function checkPassword(user: UserRow, password: string) {
    if (!(await verifyPassword(user.password, password))) {
      throw badRequest(TWO_FACTOR_MESSAGES.wrongPassword, 'wrong_password');
    }
  }

  /**
   * Accepts a code from the app (each 30-second step once) or, where allowed, an unused recovery
   * code (spent by this call). Wrong codes count toward the account's limit; a right one clears it.
   */
  async function checkCode(user: UserRow, code: string, options: { recovery: boolean }) {
    const key = `two-factor:${user.id}`;
    const limited = await rateLimiter.hit(db, key, CODE_ATTEMPTS, CODE_WINDOW_SECONDS);
    if (!limited.allowed) throw tooManyRequests(TWO_FACTOR_MESSAGES.tooMany, limited.retryAfterSeconds);
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
    await rateLimiter.reset(db, key);
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

  /** A change to how the account signs in is told to its owner (someone else may have made it). */
  function tellOwner(user: UserRow, change: string) {
    const name = user.firstName ?? user.username;
    mailer
      .send({
        to: user.email,
        subject: `Two-factor authentication ${change} on your Pigeonhole account`,
        text:
          `Hello ${name},\n\nTwo-factor authentication was ${change} on your Pigeonhole account just now.\n` +
          `If it was not you, reset your password at once and tell your administrator.\n`,
      })
      .catch((err: unknown) => log.error({ err }, 'two-factor notice email failed'));
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
      if (!user.twoFactorSecret) throw badRequest(TWO_FACTOR_MESSAGES.setUpFirst, 'not_set_up');
      await checkCode(user, code, { recovery: false });
      const codes = await transactionForgetting(db, caches, async (tx, forget) => {
        await usersRepository.update(tx, userId, { twoFactorEnabledAt: new Date() });
        await sessionsRepository.deleteForUser(tx, userId, sessionId);
        forget({ kind: 'user', userId });
        return issueRecoveryCodes(userId, tx);
      });
      tellOwner(user, 'turned on');
      return codes;
    },

    async disable(userId: string, password: string, code: string) {
      const user = await userOf(userId);
      if (!user.twoFactorEnabledAt) throw conflict(TWO_FACTOR_MESSAGES.notEnabled, 'not_enabled');
      await checkPassword(user, password);
      await checkCode(user, code, { recovery: true });
      await transactionForgetting(db, caches, async (tx, forget) => {
        await usersRepository.update(tx, userId, {
          twoFactorSecret: null,
          twoFactorEnabledAt: null,
          twoFactorLastStep: null,
        });
        await twoFactorRepository.replaceRecoveryCodes(tx, userId, []);
        forget({ kind: 'user', userId });
      });
      tellOwner(user, 'turned off');
    },

    async regenerateRecoveryCodes(userId: string, code: string): Promise<string[]> {
      const user = await userOf(userId);
      if (!user.twoFactorEnabledAt) throw conflict(TWO_FACTOR_MESSAGES.notEnabled, 'not_enabled');
      await checkCode(user, code, { recovery: true });
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
      await checkCode(user, code, { recovery: true });
      if (!(await twoFactorRepository.consumeChallenge(db, found.id))) throw expired();
      return user;
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

export const requiresTwoFactor = (user: UserRow) => user.twoFactorEnabledAt !== null;
