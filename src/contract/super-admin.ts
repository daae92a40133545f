import { z } from 'zod';
import { Timestamp } from './common';
import { PlanType, SubscriptionStatus } from './organizations';
import { limitParam, offsetParam } from './pagination';

/**
 * The platform operator's console (spec §2 Super Admin Dashboard, §6, §7). Every
 * `/api/super-admin/*` call answers 403 to anyone whose `isSuperAdmin` is false.
 */

/** GET /api/super-admin/stats: SQL aggregates over the whole platform. */
export const PlatformStats = z.object({
  totalOrganizations: z.number().int(),
  totalUsers: z.number().int(),
  /** Organizations on a trial that has not ended. */
  activeTrials: z.number().int(),
  /** Organizations on a paid plan whose subscription is active. */
  paidSubscriptions: z.number().int(),
  /** Packages logged this calendar month (each organization's own month, in its timezone). */
  totalPackagesThisMonth: z.number().int(),
  /** Dollars received: the sum of recorded paid payments, all time. */
  revenue: z.number(),
});
export type PlatformStats = z.infer<typeof PlatformStats>;

/** The text a list is searched by: case-insensitive substring (spec §5). */
const searchParam = z
  .string()
  .trim()
  .max(200, 'Search must be less than 200 characters')
  .optional()
  .transform((v) => v || undefined);

/** GET /api/super-admin/organizations: newest first; total in X-Total-Count. */
export const SuperAdminOrganizationsQuery = z.object({
  /** Organization name or email domain. */
  search: searchParam,
  limit: limitParam(100, 25),
  offset: offsetParam,
});

export const SuperAdminOrganization = z.object({
  id: z.uuid(),
  name: z.string(),
  domain: z.string().nullable(),
  planType: PlanType,
  subscriptionStatus: SubscriptionStatus,
  memberCount: z.number().int(),
  /** Packages logged this month. */
  packageCount: z.number().int(),
  maxUsers: z.number().int(),
  maxPackagesPerMonth: z.number().int(),
  createdAt: Timestamp,
  trialEndsAt: Timestamp.nullable(),
});
export type SuperAdminOrganization = z.infer<typeof SuperAdminOrganization>;

/** GET /api/super-admin/users: newest first; total in X-Total-Count. */
export const SuperAdminUsersQuery = z.object({
  /** Email, username or full name. */
  search: searchParam,
  limit: limitParam(100, 25),
  offset: offsetParam,
});

export const SuperAdminUser = z.object({
  id: z.uuid(),
  username: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  isSuperAdmin: z.boolean(),
  createdAt: Timestamp,
  organizations: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type SuperAdminUser = z.infer<typeof SuperAdminUser>;

/** PATCH /api/super-admin/organizations/{orgId}: one field or both; a plan applies its limits. */
export const UpdatePlatformOrganizationBody = z
  .object({
    subscriptionStatus: z.enum(SubscriptionStatus.options, { message: 'Unknown subscription status' }).optional(),
    planType: z.enum(PlanType.options, { message: 'Unknown plan type' }).optional(),
  })
  .strict()
  .refine((b) => b.subscriptionStatus !== undefined || b.planType !== undefined, {
    message: 'Give a subscription status or a plan type',
  });
export type UpdatePlatformOrganizationBody = z.infer<typeof UpdatePlatformOrganizationBody>;

/** PATCH /api/super-admin/users/{userId}. Nobody revokes their own flag (400). */
export const UpdatePlatformUserBody = z
  .object({ isSuperAdmin: z.boolean({ message: 'isSuperAdmin must be true or false' }) })
  .strict();
export type UpdatePlatformUserBody = z.infer<typeof UpdatePlatformUserBody>;

export const SUPER_ADMIN_MESSAGES = {
  forbidden: 'Super admin access required',
  twoFactorRequired: 'Turn on two-factor authentication in Account settings to use the super admin console.',
  organizationNotFound: 'Organization not found',
  userNotFound: 'User not found',
  selfRevoke: 'You cannot revoke your own super admin access',
  organizationUpdated: 'Organization updated successfully',
  userUpdated: 'User updated successfully',
  organizationUpdateFailed: 'Failed to update organization',
  userUpdateFailed: 'Failed to update user',
} as const;

/** What the platform log records (System Logs): operators' changes, sign-in abuse, payment webhooks. */
export const PLATFORM_LOG_KINDS = ['super_admin', 'sign_in', 'webhook', 'scim'] as const;
export const PlatformLogKind = z.enum(PLATFORM_LOG_KINDS, { message: 'Unknown log kind' });
export type PlatformLogKind = z.infer<typeof PlatformLogKind>;

export const PLATFORM_LOG_ACTIONS = [
  'organization.updated',
  'user.super_admin_granted',
  'user.super_admin_revoked',
  'sign_in.repeated_failures',
  'sign_in.repeated_two_factor_failures',
  'user.two_factor_reset',
  'webhook.stripe_failed',
  'organization.domain_verified',
  'scim.token_refused',
] as const;
export const PlatformLogAction = z.enum(PLATFORM_LOG_ACTIONS);
export type PlatformLogAction = z.infer<typeof PlatformLogAction>;

/** GET /api/super-admin/logs: newest first; total in X-Total-Count. */
export const PlatformLogQuery = z.object({
  kind: PlatformLogKind.optional(),
  /** Who, what or the target's name or email: case-insensitive substring. */
  search: searchParam,
  limit: limitParam(100, 25),
  offset: offsetParam,
});

export const PlatformLogEntry = z.object({
  id: z.uuid(),
  kind: PlatformLogKind,
  action: PlatformLogAction,
  /** The super admin who acted; null for sign-in and webhook entries. */
  actor: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** The target's name or email when it happened (an organization, a user, a typed login, a provider). */
  targetLabel: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  /** What else the entry needs to be understood: an address, a count, a reason. */
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: Timestamp,
});
export type PlatformLogEntry = z.infer<typeof PlatformLogEntry>;
