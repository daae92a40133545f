import { z } from 'zod';
import { Role } from './organizations';

/** GET /api/invitations/verify/{token}: what the invitee sees before registering. */
export const InvitationPreview = z.object({
  email: z.string(),
  organizationName: z.string(),
  role: Role,
});
export type InvitationPreview = z.infer<typeof InvitationPreview>;
