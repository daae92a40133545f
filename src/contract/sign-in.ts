import type { LoginReply, TwoFactorChallenge } from './two-factor';

/**
 * The words the signed-out pages show, and what they need besides their forms' schemas, in a
 * module without zod: a page that imports one constant from a module of schemas takes zod (25 KB
 * gzip) into its first load, because the bundler keeps every schema the module declares. The
 * signed-out forms load their schemas when first used (decision 024).
 */

/** A reset link without its token (the /reset-password page) or with a blank one (POST /api/reset-password). */
export const RESET_TOKEN_INVALID = 'Invalid or missing reset token.';

/** The invitation messages, shared by the server and the screens. */
export const INVITATION_MESSAGES = {
  invalid: 'Invalid or expired invitation. You can still create an account.',
  invalidLink: 'The invitation link is invalid or expired, but you can still create an account.',
  verifyFailed: 'Failed to verify invitation',
  alreadyMember: 'This person is already a member of the organization',
  alreadyInvited: 'An invitation is already pending for this email. Use Resend to send it again.',
  emailMismatch: 'This invitation was sent to a different email address',
  seatLimit: 'No seats are available. An admin can add seats in Billing.',
  trialExpired: "This organization's free trial has ended. An admin can choose a plan in Billing.",
  joinFailed: 'Could not join the organization. Please open the invitation link again.',
  sendFailed: 'Failed to send invitation',
  resendFailed: 'Failed to resend invitation',
} as const;

/** Every message of two-factor sign-in and its settings, shared by the server and the screens. */
export const TWO_FACTOR_MESSAGES = {
  codeRequired: 'Enter the 6-digit code from your authenticator app.',
  codeOrRecoveryRequired: 'Enter the 6-digit code from your authenticator app or a recovery code.',
  invalidCode: 'That code is not right. Check the time on your phone and try again.',
  challengeExpired: 'This sign-in has expired. Please sign in again.',
  tooMany: 'Too many codes tried. Please wait a few minutes and try again.',
  /** Past the day's limit at sign-in: resetting the password ends the attempts (and clears the count). */
  tooManyToday: 'Too many wrong codes today. Reset your password to sign in again, or try again tomorrow.',
  verifyEmailFirst: 'Verify your email address first: two-factor set-up waits for it.',
  alreadyEnabled: 'Two-factor authentication is already on.',
  notEnabled: 'Two-factor authentication is not on.',
  setUpFirst: 'Start the set-up first: scan the QR code, then enter the code it shows.',
  wrongPassword: 'Current password is incorrect',
  passwordRequired: 'Enter your current password.',
  enabled: 'Two-factor authentication is on. Keep your recovery codes somewhere safe.',
  disabled: 'Two-factor authentication is off.',
} as const;

export const EMAIL_VERIFICATION_MESSAGES = {
  verified: 'Your email address is verified.',
  invalid: 'This verification link is invalid or has expired. Sign in and send a new one from Account settings.',
  alreadyVerified: 'Your email address is already verified.',
  sent: 'We sent a new verification link. Check your inbox (and the spam folder).',
  tooMany: 'Too many verification emails. Please try again later.',
  /** A SUPER_ADMIN_EMAILS address: the role waits for the password set through the link that follows. */
  verifiedSuperAdmin:
    'Your email address is verified. To finish setting up platform administrator access, choose your password through the link we just emailed you.',
} as const;

/** Whether a sign-in reply asks for the second factor instead of opening a session. */
export function isTwoFactorChallenge(reply: LoginReply): reply is TwoFactorChallenge {
  return 'twoFactorRequired' in reply;
}
