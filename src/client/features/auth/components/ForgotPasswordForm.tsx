import { zodResolver } from '@hookform/resolvers/zod';
import { ForgotPasswordBody } from '@contract';
import { MailCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { StatusPanel } from '@/components/StatusPanel';
import { Button } from '@/components/ui/button';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useForgotPassword } from '../api/forgotPassword';
import { toastFailure } from '@/lib/useErrorToast';

/** The email form, then the "check your inbox" confirmation. */
export function ForgotPasswordForm() {
  const request = useForgotPassword();
  const { register, handleSubmit, formState } = useForm({
    resolver: zodResolver(ForgotPasswordBody),
    defaultValues: { email: '' },
  });
  const error = formState.errors.email?.message;

  if (request.isSuccess) {
    return (
      <StatusPanel icon={MailCheck} tone="success" title="Check your email">
        <p>
          If an account exists for <strong className="font-medium text-fg">{request.variables.email}</strong>, a
          password reset link has been sent. The link expires in one hour.
        </p>
        <p>Don&apos;t see it within a few minutes? Check your spam folder.</p>
      </StatusPanel>
    );
  }

  const onSubmit = handleSubmit((values) =>
    request.mutate(values, {
      onError: (err) => toastFailure('Error', err, 'Failed to send reset email.'),
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormField id="forgot-email" label="Email" error={error}>
        <Input
          {...fieldA11y('forgot-email', error)}
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          {...register('email')}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={request.isPending}>
        {request.isPending ? 'Sending…' : 'Send Reset Link'}
      </Button>
    </form>
  );
}
