import { useMutation } from '@tanstack/react-query';
import type { AcceptedInvitation } from '@contract';
import { apiRequest } from '@/lib/api';

export function acceptInvitation(token: string) {
  return apiRequest<AcceptedInvitation>('POST', '/api/invitations/accept', { token });
}

/** A signed-in person joins the invitation's organization. */
export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation });
}
