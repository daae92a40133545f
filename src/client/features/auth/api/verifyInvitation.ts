import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InvitationPreview } from '@contract';
import { ApiError, apiRequest } from '@/lib/api';

/** The invitation behind a token, or null when it is unknown or expired (404). */
export async function verifyInvitation(token: string): Promise<InvitationPreview | null> {
  try {
    return await apiRequest<InvitationPreview>('GET', `/api/invitations/verify/${encodeURIComponent(token)}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export function verifyInvitationQuery(token: string) {
  return queryOptions({
    queryKey: ['/api/invitations/verify', token] as const,
    queryFn: () => verifyInvitation(token),
  });
}

export function useVerifyInvitation(token: string | null) {
  return useQuery({ ...verifyInvitationQuery(token ?? ''), enabled: Boolean(token) });
}
