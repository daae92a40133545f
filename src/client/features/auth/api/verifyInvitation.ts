import type { InvitationPreview } from '@contract';
import { ApiError, apiRequest } from '@/lib/api';

/**
 * The invitation behind a token, or null when it is unknown or expired (404). Without TanStack
 * Query, which the signed-out forms do without (useInvitationPreview); the signed-in join screen
 * wraps it in a query (useVerifyInvitation).
 */
export async function verifyInvitation(token: string): Promise<InvitationPreview | null> {
  try {
    return await apiRequest<InvitationPreview>('GET', `/api/invitations/verify/${encodeURIComponent(token)}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
