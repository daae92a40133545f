import { INVITATION_MESSAGES } from '@contract';
import { AlertTriangle } from 'lucide-react';
import { useEffect } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import type { InvitationPreviewState } from '../hooks/useInvitationPreview';
import { SignUpForm } from './SignUpForm';

/** Shown beside a form when the invitation link is unknown or expired. */
export function InvalidInvitationNote() {
  return (
    <p
      role="status"
      className="mb-4 flex items-start gap-2 rounded-lg border border-amber-200 dark:border-amber-800 bg-amber-50 dark:bg-amber-950/40 px-3 py-2 text-sm text-amber-900 dark:text-amber-300"
    >
      <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
      {INVITATION_MESSAGES.invalidLink}
    </p>
  );
}

/**
 * The sign-up form, once the invitation token (if any) is verified (`preview`, from the screen's
 * useInvitationPreview). An invalid or unverifiable invitation still lets the person create a
 * plain account.
 */
export function InvitationAwareSignUp({ token, preview }: { token: string | null; preview: InvitationPreviewState }) {
  const { status, invitation } = preview;
  const invalid = status === 'invalid';
  const isError = status === 'failed';

  useEffect(() => {
    if (invalid) {
      toast({
        title: INVITATION_MESSAGES.invalid,
        description: INVITATION_MESSAGES.invalidLink,
        variant: 'destructive',
      });
    }
  }, [invalid]);

  useEffect(() => {
    if (isError) toast({ title: INVITATION_MESSAGES.verifyFailed, variant: 'destructive' });
  }, [isError]);

  if (status === 'loading') {
    return (
      <div className="flex items-center justify-center gap-3 py-12 text-sm text-fg-subtle">
        <Spinner className="size-5" label="Verifying invitation" /> Verifying your invitation…
      </div>
    );
  }
  return (
    <>
      {invalid && <InvalidInvitationNote />}
      <SignUpForm invitation={invitation && token ? { ...invitation, token } : undefined} />
    </>
  );
}
