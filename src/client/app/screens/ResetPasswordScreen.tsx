import { RESET_TOKEN_INVALID } from '@contract';
import { LinkIcon } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import { StatusPanel } from '@/components/StatusPanel';
import { TextLink } from '@/components/TextLink';
import { Button } from '@/components/ui/button';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { ResetPasswordForm } from '@/features/auth/components/ResetPasswordForm';

export function ResetPasswordScreen() {
  const token = new URLSearchParams(useSearch()).get('token');

  if (!token) {
    return (
      <AuthLayout title="Reset your password">
        <StatusPanel
          icon={LinkIcon}
          tone="warning"
          title="Invalid Reset Link"
          actions={
            <>
              <Button asChild>
                <Link href="/forgot-password">Request a new link</Link>
              </Button>
              <Button asChild variant="outline">
                <Link href="/auth">Back to sign in</Link>
              </Button>
            </>
          }
        >
          <p>{RESET_TOKEN_INVALID}</p>
          <p>Reset links can be used once and expire after one hour. Request a new one to continue.</p>
        </StatusPanel>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Choose a new password"
      description="Pick a password you don't use anywhere else."
      footer={
        <p>
          <TextLink href="/auth">Back to sign in</TextLink>
        </p>
      }
    >
      <ResetPasswordForm token={token} />
    </AuthLayout>
  );
}
