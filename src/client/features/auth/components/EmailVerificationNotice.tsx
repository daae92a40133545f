import type { User } from '@contract';
import { CheckCircle2, MailWarning } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { toastFailure } from '@/lib/useErrorToast';
import { useResendVerification } from '../api/verifyEmail';

/** Whether the account's email is proven, and a way to get a new link when it is not. */
export function EmailVerificationNotice({ user }: { user: User }) {
  const resend = useResendVerification();
  if (user.emailVerified) {
    return (
      <p className="flex items-center gap-2 text-sm text-emerald-700 dark:text-emerald-300">
        <CheckCircle2 aria-hidden className="size-4" /> {user.email} is verified.
      </p>
    );
  }
  return (
    <div
      role="note"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-amber-50 dark:bg-amber-950/40 p-3 text-sm text-amber-900 dark:text-amber-300"
    >
      <p className="flex items-start gap-2">
        <MailWarning aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span>{user.email} is not verified yet. Open the link we emailed you: two-factor set-up waits for it.</span>
      </p>
      <Button
        variant="outline"
        size="sm"
        disabled={resend.isPending}
        onClick={() =>
          resend.mutate(undefined, {
            onSuccess: (reply) => toast({ title: 'Verification email sent', description: reply.message }),
            onError: (err) => toastFailure('Could not send the verification email', err),
          })
        }
      >
        {resend.isPending ? 'Sending…' : 'Resend verification email'}
      </Button>
    </div>
  );
}
