import { CheckCircle2 } from 'lucide-react';
import { StatusPanel } from '@/components/StatusPanel';
import { ButtonLink } from '@/components/ButtonLink';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { SubmitButton } from '@/components/SubmitButton';
import { resetPassword } from '../api/resetPassword';
import { toastFailure } from '@/lib/useErrorToast';
import { useSchemaForm } from '@/lib/schemaForm';
import { useSubmission } from '@/lib/useSubmission';

/** The new-password form for a reset token, then the success view. */
export function ResetPasswordForm({ token }: { token: string }) {
  const reset = useSubmission(resetPassword);
  const { field, errors, preload, submit } = useSchemaForm(
    () => import('../formSchemas').then((m) => m.ResetPasswordForm),
    { token, password: '', confirmPassword: '' },
  );

  if (reset.isSuccess) {
    return (
      <StatusPanel
        icon={CheckCircle2}
        tone="success"
        title="Password reset"
        actions={<ButtonLink href="/login">Go to Login</ButtonLink>}
      >
        <p>Your password has been changed. Sign in with your new password.</p>
      </StatusPanel>
    );
  }

  const onSubmit = submit(({ password }) =>
    reset.run(
      { token, password },
      {
        onError: (err) => toastFailure('Error', err, 'Failed to reset password.'),
      },
    ),
  );

  const tokenError = errors.token;
  return (
    <form onSubmit={onSubmit} onFocus={preload} noValidate className="space-y-4">
      {tokenError && (
        <p role="alert" className="rounded-lg bg-red-50 dark:bg-red-950/40 p-3 text-sm text-red-700 dark:text-red-300">
          {tokenError}
        </p>
      )}
      <FormField id="reset-password" label="New Password" error={errors.password} hint="At least 8 characters.">
        <Input
          {...fieldA11y('reset-password', errors.password)}
          type="password"
          autoComplete="new-password"
          {...field('password')}
        />
      </FormField>
      <FormField id="reset-confirm-password" label="Confirm New Password" error={errors.confirmPassword}>
        <Input
          {...fieldA11y('reset-confirm-password', errors.confirmPassword)}
          type="password"
          autoComplete="new-password"
          {...field('confirmPassword')}
        />
      </FormField>
      <SubmitButton className="w-full" pending={reset.isPending} pendingLabel="Resetting…">
        Reset Password
      </SubmitButton>
    </form>
  );
}
