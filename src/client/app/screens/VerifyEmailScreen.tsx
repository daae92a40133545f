import { EMAIL_VERIFICATION_MESSAGES } from '@contract';
import { CheckCircle2, LinkIcon, Loader2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { StatusPanel } from '@/components/StatusPanel';
import { Button } from '@/components/ui/button';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { useVerifyEmail } from '@/features/auth/api/verifyEmail';
import { serverMessage } from '@/lib/api';

/**
 * /verify-email?token=...: the emailed link. It proves the address as soon as the page opens,
 * signed in or not, and says how it went.
 */
export function VerifyEmailScreen() {
  const token = new URLSearchParams(useSearch()).get('token');
  const verify = useVerifyEmail();
  const sent = useRef(false);
  useEffect(() => {
    if (token && !sent.current) {
      sent.current = true;
      verify.mutate(token);
    }
  }, [token, verify]);

  const home = (
    <Button asChild>
      <Link href="/">Continue to Pigeonhole</Link>
    </Button>
  );
  let panel;
  if (!token || verify.isError) {
    panel = (
      <StatusPanel icon={LinkIcon} tone="warning" title="Invalid Verification Link" actions={home}>
        <p>
          {token
            ? serverMessage(verify.error, EMAIL_VERIFICATION_MESSAGES.invalid)
            : EMAIL_VERIFICATION_MESSAGES.invalid}
        </p>
      </StatusPanel>
    );
  } else if (verify.isSuccess) {
    panel = (
      <StatusPanel icon={CheckCircle2} tone="success" title="Email Verified" actions={home}>
        {/* The server's words: a platform administrator's address is told about the link that follows. */}
        <p>{verify.data?.message ?? EMAIL_VERIFICATION_MESSAGES.verified}</p>
      </StatusPanel>
    );
  } else {
    panel = (
      <StatusPanel icon={Loader2} tone="info" title="Verifying your email…">
        <p role="status">One moment.</p>
      </StatusPanel>
    );
  }
  return <AuthLayout title="Verify your email">{panel}</AuthLayout>;
}
