import { useEffect } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useVerifyInvitation } from '../api/verifyInvitation';
import { SignUpForm } from './SignUpForm';

/**
 * The sign-up form, verifying the invitation token first when there is one.
 * An invalid or unverifiable invitation still lets the person create a plain account.
 */
export function InvitationAwareSignUp({ token }: { token: string | null }) {
  const { data: invitation, isLoading, isError } = useVerifyInvitation(token);
  const invalid = Boolean(token) && invitation === null;

  useEffect(() => {
    if (invalid) {
      toast({
        title: 'Invalid or expired invitation. You can still create an account.',
        description: 'The invitation link is invalid or expired, but you can still create an account.',
        variant: 'destructive',
      });
    }
  }, [invalid]);

  useEffect(() => {
    if (isError) toast({ title: 'Failed to verify invitation', variant: 'destructive' });
  }, [isError]);

  if (isLoading) {
    return (
      <div className="flex items-center justify-center gap-3 py-12 text-sm text-slate-500">
        <Spinner className="size-5" label="Verifying invitation" /> Verifying your invitation…
      </div>
    );
  }
  return <SignUpForm invitation={invitation && token ? { ...invitation, token } : undefined} />;
}
