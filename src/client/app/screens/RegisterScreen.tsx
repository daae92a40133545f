import { TextLink } from '@/components/TextLink';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { InvitationAwareSignUp } from '@/features/auth/components/InvitationAwareSignUp';
import { useInvitationPreview } from '@/features/auth/hooks/useInvitationPreview';
import { useInvitationToken } from '@/features/auth/hooks/useInvitationToken';

export function RegisterScreen() {
  const token = useInvitationToken();
  const preview = useInvitationPreview(token);
  return (
    <AuthLayout
      title="Create your account"
      description="Start your 7-day free trial. No card required."
      footer={
        <>
          <p>
            Already have an account? <TextLink href="/login">Sign in</TextLink>
          </p>
          <p>
            <TextLink href="/">Back to homepage</TextLink>
          </p>
        </>
      }
    >
      <InvitationAwareSignUp token={token} preview={preview} />
    </AuthLayout>
  );
}
