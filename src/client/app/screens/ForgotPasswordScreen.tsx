import { TextLink } from '@/components/TextLink';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { ForgotPasswordForm } from '@/features/auth/components/ForgotPasswordForm';

export function ForgotPasswordScreen() {
  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter the email address of your account and we'll send you a link to choose a new password."
      footer={
        <p>
          Remembered it? <TextLink href="/auth">Back to sign in</TextLink>
        </p>
      }
    >
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
