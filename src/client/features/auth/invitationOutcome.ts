import { INVITATION_MESSAGES, type InvitationJoinOutcome } from '@contract';
import type { ToastMessage } from '@/components/ui/use-toast';
import { storeSelectedOrganizationId } from '@/lib/api';

const refusals: Partial<Record<InvitationJoinOutcome['status'], string>> = {
  seat_limit: INVITATION_MESSAGES.seatLimit,
  trial_expired: INVITATION_MESSAGES.trialExpired,
  email_mismatch: INVITATION_MESSAGES.emailMismatch,
  invalid: INVITATION_MESSAGES.invalidLink,
  failed: INVITATION_MESSAGES.joinFailed,
};

/**
 * After signing in or registering through an invitation: selects the invited organization (so the
 * next page opens in it) and words the toast. `organizationName` comes from the verified invitation.
 */
export function applyInvitationOutcome(
  outcome: InvitationJoinOutcome | undefined,
  organizationName: string | undefined,
  fallback: ToastMessage,
): ToastMessage {
  if (!outcome) return fallback;
  if (outcome.organizationId) storeSelectedOrganizationId(outcome.organizationId);
  const name = organizationName ?? 'the organization';
  switch (outcome.status) {
    case 'joined':
      return { title: `Welcome to ${name}!`, description: `You have joined ${name}.` };
    case 'already_member':
      return { title: fallback.title, description: `You are already a member of ${name}.` };
    default:
      return {
        title: `Could not join ${name}`,
        description: outcome.message ?? refusals[outcome.status] ?? INVITATION_MESSAGES.joinFailed,
        variant: 'destructive',
      };
  }
}
