import { useSearch } from 'wouter';

/** The invitation token of the current address: `?invitation=` or `?token=` (spec §2). */
export function useInvitationToken(): string | null {
  const params = new URLSearchParams(useSearch());
  return params.get('invitation') || params.get('token') || null;
}
