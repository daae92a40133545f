import { queryOptions, useQuery } from '@tanstack/react-query';
import { verifyInvitation } from './verifyInvitation';

export function verifyInvitationQuery(token: string) {
  return queryOptions({
    queryKey: ['/api/invitations/verify', token] as const,
    queryFn: () => verifyInvitation(token),
  });
}

/** The invitation behind a token, for the signed-in join screen. */
export function useVerifyInvitation(token: string | null) {
  return useQuery({ ...verifyInvitationQuery(token ?? ''), enabled: Boolean(token) });
}
