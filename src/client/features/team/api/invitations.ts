import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateInvitationBody, Invitation } from '@contract';
import { apiRequest } from '@/lib/api';
import { orgQueryKey } from '@/lib/queryClient';
import { auditLogQueryKey } from '@/lib/resources/keys';

export function invitationsQueryKey(organizationId: string) {
  return orgQueryKey(organizationId, '/api/user-invitations');
}

export function fetchInvitations(organizationId: string) {
  return apiRequest<Invitation[]>('GET', '/api/user-invitations', undefined, { organizationId });
}

/** Spec §6: the pending-invitations call runs only for admins; the caller passes `enabled`. */
export function invitationsQuery(organizationId: string) {
  return queryOptions({
    queryKey: invitationsQueryKey(organizationId),
    queryFn: () => fetchInvitations(organizationId),
    refetchOnMount: 'always',
  });
}

export function useInvitations(organizationId: string, enabled = true) {
  return useQuery({ ...invitationsQuery(organizationId), enabled });
}

/** After any change to invitations: the pending list and the activity log. */
function useRefreshInvitations(organizationId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: invitationsQueryKey(organizationId) }),
      queryClient.invalidateQueries({ queryKey: auditLogQueryKey(organizationId) }),
    ]);
}

/** Spec §7: a reply that is not JSON is reported with this message. */
export const INVALID_JSON_REPLY = 'Invalid JSON response from server';

export async function createInvitation(organizationId: string, body: CreateInvitationBody) {
  try {
    return await apiRequest<Invitation>('POST', '/api/user-invitations', body, { organizationId });
  } catch (err) {
    if (err instanceof SyntaxError) throw new Error(INVALID_JSON_REPLY, { cause: err });
    throw err;
  }
}

export function useCreateInvitation(organizationId: string) {
  const refresh = useRefreshInvitations(organizationId);
  return useMutation({
    mutationFn: (body: CreateInvitationBody) => createInvitation(organizationId, body),
    onSuccess: refresh,
  });
}

export function resendInvitation(organizationId: string, id: string) {
  return apiRequest<Invitation>('POST', `/api/user-invitations/${id}/resend`, undefined, { organizationId });
}

/** A new token and a new expiry; the old link stops working. */
export function useResendInvitation(organizationId: string) {
  const refresh = useRefreshInvitations(organizationId);
  return useMutation({ mutationFn: (id: string) => resendInvitation(organizationId, id), onSuccess: refresh });
}

export function revokeInvitation(organizationId: string, id: string) {
  return apiRequest<void>('DELETE', `/api/user-invitations/${id}`, undefined, { organizationId });
}

export function useRevokeInvitation(organizationId: string) {
  const refresh = useRefreshInvitations(organizationId);
  return useMutation({ mutationFn: (id: string) => revokeInvitation(organizationId, id), onSuccess: refresh });
}
