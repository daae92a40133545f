import { zodResolver } from '@hookform/resolvers/zod';
import { RegisterBody, RegisterForm, UpdateUserBody, type InvitationPreview } from '@contract';
import { MailCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toastAfterReload } from '@/components/ui/use-toast';
import { useRegister } from '../api/register';
import { applyInvitationOutcome } from '../invitationOutcome';
import { toastFailure } from '@/lib/useErrorToast';

/** Registering through an invitation also requires the first and last name (spec §2). */
const InvitedRegisterForm = RegisterBody.extend({
  firstName: UpdateUserBody.shape.firstName,
  lastName: UpdateUserBody.shape.lastName,
  confirmPassword: z.string(),
}).refine((v) => v.password === v.confirmPassword, {
  message: "Passwords don't match",
  path: ['confirmPassword'],
});

interface SignUpFormProps {
  /** A verified invitation: its email is fixed and the names become required. */
  invitation?: InvitationPreview & { token: string };
}

export function SignUpForm({ invitation }: SignUpFormProps) {
  const signUp = useRegister();
  const { register, handleSubmit, formState } = useForm({
    resolver: zodResolver(invitation ? InvitedRegisterForm : RegisterForm),
    defaultValues: {
      firstName: '',
      lastName: '',
      username: '',
      email: invitation?.email ?? '',
      password: '',
      confirmPassword: '',
    },
  });
  const { errors } = formState;

  const onSubmit = handleSubmit(({ username, email, password, firstName, lastName }) =>
    signUp.mutate(
      { username, email, password, firstName, lastName, invitationToken: invitation?.token },
      {
        onSuccess: (reply) => {
          toastAfterReload(
            applyInvitationOutcome(reply.invitation, invitation?.organizationName, {
              title: 'Welcome to Pigeonhole!',
              description: 'Your account has been created.',
            }),
          );
          window.location.href = '/';
        },
        onError: (err) => toastFailure('Registration failed', err, 'Failed to create account. Please try again.'),
      },
    ),
  );

  const busy = signUp.isPending || signUp.isSuccess;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {invitation && (
        <div className="flex gap-3 rounded-lg border border-indigo-200 dark:border-indigo-800 bg-indigo-50 dark:bg-indigo-950/40 p-3 text-sm text-indigo-900 dark:text-indigo-300">
          <MailCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-indigo-600 dark:text-indigo-400" />
          <p>
            You have been invited to join <strong className="font-semibold">{invitation.organizationName}</strong> as{' '}
            {invitation.role === 'admin' ? 'an admin' : 'a member'}.
          </p>
        </div>
      )}
      {invitation && (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="register-first-name" label="First Name" error={errors.firstName?.message}>
            <Input
              {...fieldA11y('register-first-name', errors.firstName?.message)}
              autoComplete="given-name"
              {...register('firstName')}
            />
          </FormField>
          <FormField id="register-last-name" label="Last Name" error={errors.lastName?.message}>
            <Input
              {...fieldA11y('register-last-name', errors.lastName?.message)}
              autoComplete="family-name"
              {...register('lastName')}
            />
          </FormField>
        </div>
      )}
      <FormField id="register-username" label="Username" error={errors.username?.message}>
        <Input
          {...fieldA11y('register-username', errors.username?.message)}
          autoComplete="username"
          placeholder="jane.doe"
          {...register('username')}
        />
      </FormField>
      <FormField
        id="register-email"
        label="Email"
        error={errors.email?.message}
        hint={invitation ? 'The invitation was sent to this address.' : undefined}
      >
        <Input
          {...fieldA11y('register-email', errors.email?.message)}
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          readOnly={Boolean(invitation)}
          {...register('email')}
        />
      </FormField>
      <FormField id="register-password" label="Password" error={errors.password?.message} hint="At least 6 characters.">
        <Input
          {...fieldA11y('register-password', errors.password?.message)}
          type="password"
          autoComplete="new-password"
          {...register('password')}
        />
      </FormField>
      <FormField id="register-confirm-password" label="Confirm Password" error={errors.confirmPassword?.message}>
        <Input
          {...fieldA11y('register-confirm-password', errors.confirmPassword?.message)}
          type="password"
          autoComplete="new-password"
          {...register('confirmPassword')}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Creating account…' : 'Create Account'}
      </Button>
    </form>
  );
}
