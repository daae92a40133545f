import { z } from 'zod';
import { emailField } from './auth';
import { Timestamp } from './common';
import { Role } from './organizations';

/** Invitations expire this long after they are sent (or re-sent). */
export const INVITATION_TTL_DAYS = 7;

/** GET /api/invitations/verify/{token}: what the invitee sees before registering. */
export const InvitationPreview = z.object({
  email: z.string(),
  organizationName: z.string(),
  role: Role,
});
export type InvitationPreview = z.infer<typeof InvitationPreview>;

export const InvitationStatus = z.enum(['pending', 'expired']);

/** GET /api/user-invitations (admins): unused invitations of the current organization, newest first. */
export const Invitation = z.object({
  id: z.uuid(),
  email: z.string(),
  role: Role,
  expiresAt: Timestamp,
  createdAt: Timestamp,
  /** pending until expiresAt; an expired one can be re-sent. Accepted and revoked ones are not listed. */
  status: InvitationStatus,
  invitedBy: z
    .object({ id: z.uuid(), firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.string() })
    .nullable(),
});
export type Invitation = z.infer<typeof Invitation>;

/** POST /api/user-invitations: email required, role member (default) or admin. */
export const CreateInvitationBody = z.object({
  email: emailField,
  role: Role.default('member'),
});
export type CreateInvitationBody = z.input<typeof CreateInvitationBody>;

export const InvitationParams = z.object({ id: z.uuid({ message: 'Invitation not found' }) });
export const InvitationTokenParams = z.object({ token: z.string().min(1).max(200) });

/** POST /api/invitations/accept: a signed-in user joins the invitation's organization. */
export const AcceptInvitationBody = z.object({
  token: z.string({ message: 'Invitation token is required' }).min(1, 'Invitation token is required').max(200),
});
export const AcceptedInvitation = z.object({ organizationId: z.uuid(), organizationName: z.string(), role: Role });
export type AcceptedInvitation = z.infer<typeof AcceptedInvitation>;
