import { MailCheck } from 'lucide-react';
import { StatusPanel } from '@/components/StatusPanel';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { SubmitButton } from '@/components/SubmitButton';
import { requestPasswordReset } from '../api/forgotPassword';
import { toastFailure } from '@/lib/useErrorToast';
import { useSchemaForm } from '@/lib/schemaForm';
import { useSubmission } from '@/lib/useSubmission';

/** The email form, then the "check your inbox" confirmation. */
export function ForgotPasswordForm() {
  const request = useSubmission(requestPasswordReset);
  const { field, errors, preload, submit } = useSchemaForm(
    () => import('../formSchemas').then((m) => m.ForgotPasswordBody),
    { email: '' },
  );
  const error = errors.email;

  if (request.status === 'done') {
    return (
      <StatusPanel icon={MailCheck} tone="success" title="Check your email">
        <p>
          If an account exists for <strong className="font-medium text-fg">{request.args.email}</strong>, a password
          reset link has been sent. The link expires in one hour.
        </p>
        <p>Don&apos;t see it within a few minutes? Check your spam folder.</p>
      </StatusPanel>
    );
  }

  const onSubmit = submit((values) =>
    request.run(values, {
      onError: (err) => toastFailure('Error', err, 'Failed to send reset email.'),
    }),
  );

  return (
    <form onSubmit={onSubmit} onFocus={preload} noValidate className="space-y-4">
      <FormField id="forgot-email" label="Email" error={error}>
        <Input
          {...fieldA11y('forgot-email', error)}
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          {...field('email')}
        />
      </FormField>
      <SubmitButton className="w-full" pending={request.isPending} pendingLabel="Sending…">
        Send Reset Link
      </SubmitButton>
    </form>
  );
}
