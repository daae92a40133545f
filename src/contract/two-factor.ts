import { z } from 'zod';
import { TWO_FACTOR_MESSAGES } from './sign-in';
import { Timestamp } from './common';
import { SignInReply } from './auth';

/** How many single-use recovery codes an account gets at once. */
export const RECOVERY_CODE_COUNT = 10;

const password = z
  .string({ message: TWO_FACTOR_MESSAGES.passwordRequired })
  .min(1, TWO_FACTOR_MESSAGES.passwordRequired)
  .max(200);

/** A code as typed: spaces are dropped, so "123 456" from an app's display works. */
const typedCode = (required: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.replace(/\s+/g, '') : v),
    z.string({ message: required }).min(1, required).max(20, TWO_FACTOR_MESSAGES.invalidCode),
  );

/** Only the app's six digits (turning two-factor on proves the app is set up). */
const appCode = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/\s+/g, '') : v),
  z.string({ message: TWO_FACTOR_MESSAGES.codeRequired }).regex(/^\d{6}$/, TWO_FACTOR_MESSAGES.codeRequired),
);

/** GET /api/auth/two-factor */
export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  enabledAt: Timestamp.nullable(),
  /** Unused recovery codes left (0 when off). */
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** POST /api/auth/two-factor/setup: the password again, as for any change to how one signs in. */
export const TwoFactorSetupBody = z.object({ password });
export const TwoFactorSetupReply = z.object({
  /** The base32 secret, for typing into an app that cannot scan. */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code (an SVG document). */
  qrCodeSvg: z.string(),
});
export type TwoFactorSetupReply = z.infer<typeof TwoFactorSetupReply>;

/** POST /api/auth/two-factor/enable */
export const TwoFactorEnableBody = z.object({ code: appCode });

/** The recovery codes, shown once (enable and regenerate). */
export const RecoveryCodesReply = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesReply = z.infer<typeof RecoveryCodesReply>;

/** POST /api/auth/two-factor/disable: the password and a code (from the app or a recovery code). */
export const TwoFactorDisableBody = z.object({
  password,
  code: typedCode(TWO_FACTOR_MESSAGES.codeOrRecoveryRequired),
});

/** POST /api/auth/two-factor/recovery-codes: a fresh set replaces the old one. */
export const RegenerateRecoveryCodesBody = z.object({ code: typedCode(TWO_FACTOR_MESSAGES.codeOrRecoveryRequired) });

/** The reply of a right password on an account with two-factor on: no session yet, a code is owed. */
export const TwoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  /** Sent back with the code to POST /api/login/two-factor; valid for five minutes. */
  challenge: z.string(),
  expiresAt: Timestamp,
});
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallenge>;

/** POST /api/login answers the signed-in user, or a challenge when the account has two-factor on. */
export const LoginReply = z.union([SignInReply, TwoFactorChallenge]);
export type LoginReply = z.infer<typeof LoginReply>;

/** POST /api/login/two-factor */
export const LoginTwoFactorBody = z.object({
  challenge: z
    .string({ message: TWO_FACTOR_MESSAGES.challengeExpired })
    .min(1, TWO_FACTOR_MESSAGES.challengeExpired)
    .max(200),
  code: typedCode(TWO_FACTOR_MESSAGES.codeOrRecoveryRequired),
  /** The invitation token of the first step, if the sign-in came through an invitation link. */
  invitationToken: z.string().max(200).nullish(),
});
export type LoginTwoFactorBody = z.infer<typeof LoginTwoFactorBody>;

/**
 * The sign-in's second step as typed (`mode`, the link chosen: the app's code or a recovery code).
 * An empty field asks for what that mode takes; the server, which does not know the mode, asks for
 * either. The output's `code` is LoginTwoFactorBody's.
 */
export const LoginTwoFactorForm = z
  // a plain union: zod's discriminated one would be new code in every page that loads the contract
  .union([
    z.object({ mode: z.literal('app'), code: typedCode(TWO_FACTOR_MESSAGES.codeRequired) }),
    z.object({ mode: z.literal('recovery'), code: typedCode(TWO_FACTOR_MESSAGES.codeOrRecoveryRequired) }),
  ]);
