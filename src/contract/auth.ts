import { z } from 'zod';
import { Timestamp, optionalText } from './common';
import { RESET_TOKEN_INVALID } from './sign-in';
import { STAFF_LANGUAGES, STAFF_LANGUAGE_INVALID } from './languages';

export const EMAIL_INVALID = 'Please enter a valid email address';

export const emailField = z
  .string({ message: 'Email is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .max(255, 'Email must be less than 255 characters')
  .pipe(z.email(EMAIL_INVALID));

export const StaffLanguageField = z.enum(STAFF_LANGUAGES, { message: STAFF_LANGUAGE_INVALID });

/** Account settings' language: null goes back to following the browser. */
export const UpdateLanguageBody = z.object({ language: StaffLanguageField.nullable() });

export const User = z.object({
  id: z.uuid(),
  email: z.string(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  isSuperAdmin: z.boolean(),
  /** Whether the owner proved the address (the emailed link, or an emailed invitation). */
  emailVerified: z.boolean(),
  /** The staff screens' language chosen in Account settings; null follows the browser's. */
  language: StaffLanguageField.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type User = z.infer<typeof User>;

export const UpdateUserBody = z.object({
  firstName: z
    .string({ message: 'First name is required' })
    .trim()
    .min(1, 'First name is required')
    .max(100, 'First name must be less than 100 characters'),
  lastName: z
    .string({ message: 'Last name is required' })
    .trim()
    .min(1, 'Last name is required')
    .max(100, 'Last name must be less than 100 characters'),
});

export const RegisterBody = z.object({
  username: z
    .string({ message: 'Username is required' })
    .trim()
    .min(3, 'Username must be at least 3 characters')
    .max(50, 'Username must be at most 50 characters')
    .regex(/^[A-Za-z0-9._@+-]+$/, 'Username may contain letters, digits and . _ @ + - only'),
  email: emailField,
  password: z
    .string({ message: 'Password is required' })
    .min(6, 'Password must be at least 6 characters')
    .max(200, 'Password must be at most 200 characters'),
  firstName: optionalText(100, 'First name must be less than 100 characters'),
  lastName: optionalText(100, 'Last name must be less than 100 characters'),
  invitationToken: z.string().max(200).nullish(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

/** The /register form: the body plus a confirmation that is checked here and never sent. */
export const RegisterForm = RegisterBody.extend({ confirmPassword: z.string() }).refine(
  (v) => v.password === v.confirmPassword,
  { message: "Passwords don't match", path: ['confirmPassword'] },
);

/** The /register form reached through an invitation: the first and last name are required too (spec §2). */
export const InvitedRegisterForm = RegisterBody.extend({
  firstName: UpdateUserBody.shape.firstName,
  lastName: UpdateUserBody.shape.lastName,
  confirmPassword: z.string(),
}).refine((v) => v.password === v.confirmPassword, {
  message: "Passwords don't match",
  path: ['confirmPassword'],
});

export const LoginBody = z.object({
  /** The email or the username. */
  username: z.string({ message: 'Email is required' }).trim().min(1, 'Email is required').max(255),
  password: z.string({ message: 'Password is required' }).min(1, 'Password is required').max(200),
  /** Signing in through an invitation link joins its organization too. */
  invitationToken: z.string().max(200).nullish(),
});
export type LoginBody = z.infer<typeof LoginBody>;

/**
 * How joining through an invitation went when signing in (or registering) with an
 * `invitationToken`. The sign-in itself succeeds whatever the outcome; `organizationId` is set when
 * the user is (now) a member, `message` words any other outcome for a toast.
 */
export const INVITATION_JOIN_STATUSES = [
  'joined',
  'already_member',
  'seat_limit',
  'trial_expired',
  'email_mismatch',
  'invalid',
  'failed',
] as const;
export const InvitationJoinOutcome = z.object({
  status: z.enum(INVITATION_JOIN_STATUSES),
  organizationId: z.uuid().optional(),
  message: z.string().optional(),
});
export type InvitationJoinOutcome = z.infer<typeof InvitationJoinOutcome>;

/** The reply of POST /api/login and POST /api/register: the user, and the invitation outcome when a token was sent. */
export const SignInReply = User.extend({ invitation: InvitationJoinOutcome.optional() });
export type SignInReply = z.infer<typeof SignInReply>;

/** The /login form asks for an email specifically. */
export const LoginForm = z.object({
  username: z.string().trim().pipe(z.email(EMAIL_INVALID)),
  password: z.string().min(1, 'Password is required'),
});

export const ForgotPasswordBody = z.object({ email: emailField });

/** POST /api/verify-email: the token of the link /verify-email?token=... */
export const VerifyEmailBody = z.object({
  token: z
    .string({ message: 'Invalid or missing verification token.' })
    .min(1, 'Invalid or missing verification token.')
    .max(200),
});

export const ResetPasswordBody = z.object({
  token: z.string({ message: RESET_TOKEN_INVALID }).min(1, RESET_TOKEN_INVALID).max(200),
  password: z
    .string({ message: 'Password must be at least 8 characters long' })
    .min(8, 'Password must be at least 8 characters long')
    .max(200, 'Password must be at most 200 characters'),
});

export const ResetPasswordForm = ResetPasswordBody.extend({ confirmPassword: z.string() }).refine(
  (v) => v.password === v.confirmPassword,
  { message: 'Passwords do not match', path: ['confirmPassword'] },
);

export const PASSWORD_FIELDS_REQUIRED = 'Please fill in all password fields.';
export const NEW_PASSWORD_TOO_SHORT = 'New password must be at least 8 characters long.';
export const NEW_PASSWORDS_DIFFER = 'New passwords do not match.';

export const ChangePasswordBody = z.object({
  currentPassword: z.string({ message: PASSWORD_FIELDS_REQUIRED }).min(1, PASSWORD_FIELDS_REQUIRED).max(200),
  newPassword: z
    .string({ message: PASSWORD_FIELDS_REQUIRED })
    .min(1, PASSWORD_FIELDS_REQUIRED)
    .min(8, NEW_PASSWORD_TOO_SHORT)
    .max(200, 'New password must be at most 200 characters.'),
});

/** The settings form (spec §5): the body plus a confirmation that is checked here and never sent. */
export const ChangePasswordForm = ChangePasswordBody.extend({
  confirmPassword: z.string().min(1, PASSWORD_FIELDS_REQUIRED),
}).refine((v) => v.newPassword === v.confirmPassword, { message: NEW_PASSWORDS_DIFFER, path: ['confirmPassword'] });
