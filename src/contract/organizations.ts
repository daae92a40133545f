import { z } from 'zod';
import { Timestamp, optionalEmail, optionalText } from './common';

export const PLAN_TYPES = ['trial', 'starter', 'professional', 'enterprise'] as const;
export const SUBSCRIPTION_STATUSES = ['trial', 'active', 'expired', 'cancelled'] as const;
export const ROLES = ['admin', 'member'] as const;
export const PlanType = z.enum(PLAN_TYPES);
export const SubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);
export type PlanType = z.infer<typeof PlanType>;
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;
export const Role = z.enum(ROLES, { message: 'Role must be admin or member' });
export type Role = z.infer<typeof Role>;

export const TRIAL_DAYS = 7;

export const Organization = z.object({
  id: z.uuid(),
  name: z.string(),
  emailDomain: z.string().nullable(),
  address: z.string().nullable(),
  contactName: z.string().nullable(),
  contactEmail: z.string().nullable(),
  contactPhone: z.string().nullable(),
  logoUrl: z.string().nullable(),
  timezone: z.string(),
  maxUsers: z.number().int(),
  planType: PlanType,
  subscriptionStatus: SubscriptionStatus,
  billingEmail: z.string().nullable(),
  billingCycle: z.string(),
  trialStartDate: Timestamp.nullable(),
  trialEndDate: Timestamp.nullable(),
  maxPackagesPerMonth: z.number().int(),
  currentMonthPackages: z.number().int(),
  usageResetDate: Timestamp.nullable(),
  nextBillingDate: Timestamp.nullable(),
  lastPaymentDate: Timestamp.nullable(),
  lastPaymentAmount: z.number().int().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Organization = z.infer<typeof Organization>;

/** An entry of GET /api/organizations: the organization and the caller's role in it. */
export const MyOrganization = Organization.extend({ role: Role });
export type MyOrganization = z.infer<typeof MyOrganization>;

function isTimeZone(tz: string) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const organizationFields = {
  name: z
    .string({ message: 'Organization name is required' })
    .trim()
    .min(1, 'Organization name is required')
    .max(255, 'Organization name must be less than 255 characters'),
  address: optionalText(500, 'Address must be less than 500 characters'),
  contactName: optionalText(255, 'Contact name must be less than 255 characters'),
  contactEmail: optionalEmail('Please enter a valid email address'),
  contactPhone: optionalText(50, 'Contact phone must be less than 50 characters'),
  timezone: z.string().max(64).refine(isTimeZone, 'Unknown timezone').optional(),
};

export const CreateOrganizationBody = z.object(organizationFields);
export type CreateOrganizationBody = z.infer<typeof CreateOrganizationBody>;

export const UpdateOrganizationBody = z
  .object({
    ...organizationFields,
    logoUrl: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      z.url('Logo URL must be a valid URL').max(2048).nullish(),
    ),
  })
  .partial();
export type UpdateOrganizationBody = z.infer<typeof UpdateOrganizationBody>;

export const OrganizationParams = z.object({ id: z.uuid({ message: 'Organization not found' }) });
export const MemberParams = z.object({
  id: z.uuid({ message: 'Organization not found' }),
  userId: z.uuid({ message: 'Member not found' }),
});

export const Member = z.object({
  id: z.uuid(),
  organizationId: z.uuid(),
  userId: z.uuid(),
  role: Role,
  createdAt: Timestamp,
  user: z.object({
    id: z.uuid(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string(),
  }),
});
export type Member = z.infer<typeof Member>;

/** PUT /api/organizations/{id}/members/{userId} (admins). */
export const UpdateMemberBody = z.object({ role: Role });

/**
 * An organization the caller cannot see: unknown, or not theirs (the server answers the same for
 * both, so organization ids cannot be probed). Shared by the organization plugin and the services.
 */
export const ORGANIZATION_NOT_FOUND = 'Organization not found';

export const MEMBER_MESSAGES = {
  cannotRemoveSelf: 'Cannot remove yourself from the organization',
  lastAdminRemove: 'The last admin of an organization cannot be removed',
  lastAdminDemote: 'Cannot demote the last admin. Make another member admin first.',
} as const;
