import { TextLink } from '@/components/TextLink';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { SignInForm } from '@/features/auth/components/SignInForm';
import { useInvitationToken } from '@/features/auth/hooks/useInvitationToken';
import { SsoAside } from '../SsoAside';

export function LoginScreen() {
  const token = useInvitationToken();
  return (
    <AuthLayout
      title="Sign in to Pigeonhole"
      description="Welcome back. Enter your email and password to continue."
      footer={
        <>
          <p>
            Don&apos;t have an account? <TextLink href="/register">Create one</TextLink>
          </p>
          <p>
            <TextLink href="/">Back to homepage</TextLink>
          </p>
        </>
      }
    >
      <SignInForm
        requireEmail
        invitation={token ? { token } : undefined}
        addressAside={(typed) => <SsoAside typed={typed} invitationToken={token ?? undefined} />}
      />
    </AuthLayout>
  );
}
