import type { InvitationPreview } from '@contract';
import { MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toastAfterReload } from '@/components/ui/use-toast';
import { register } from '../api/register';
import { applyInvitationOutcome } from '../invitationOutcome';
import { toastFailure } from '@/lib/useErrorToast';
import { useSchemaForm } from '@/lib/schemaForm';
import { useSubmission } from '@/lib/useSubmission';

interface SignUpFormProps {
  /** A verified invitation: its email is fixed and the names become required. */
  invitation?: InvitationPreview & { token: string };
}

export function SignUpForm({ invitation }: SignUpFormProps) {
  const signUp = useSubmission(register);
  // registering through an invitation also requires the first and last name (spec §2)
  const { field, errors, preload, submit } = useSchemaForm(
    () => import('../formSchemas').then((m) => (invitation ? m.InvitedRegisterForm : m.RegisterForm)),
    {
      firstName: '',
      lastName: '',
      username: '',
      email: invitation?.email ?? '',
      password: '',
      confirmPassword: '',
    },
  );

  const onSubmit = submit(({ username, email, password, firstName, lastName }) =>
    signUp.run(
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
    <form onSubmit={onSubmit} onFocus={preload} noValidate className="space-y-4">
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
          <FormField id="register-first-name" label="First Name" error={errors.firstName}>
            <Input
              {...fieldA11y('register-first-name', errors.firstName)}
              autoComplete="given-name"
              {...field('firstName')}
            />
          </FormField>
          <FormField id="register-last-name" label="Last Name" error={errors.lastName}>
            <Input
              {...fieldA11y('register-last-name', errors.lastName)}
              autoComplete="family-name"
              {...field('lastName')}
            />
          </FormField>
        </div>
      )}
      <FormField id="register-username" label="Username" error={errors.username}>
        <Input
          {...fieldA11y('register-username', errors.username)}
          autoComplete="username"
          placeholder="jane.doe"
          {...field('username')}
        />
      </FormField>
      <FormField
        id="register-email"
        label="Email"
        error={errors.email}
        hint={invitation ? 'The invitation was sent to this address.' : undefined}
      >
        <Input
          {...fieldA11y('register-email', errors.email)}
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          readOnly={Boolean(invitation)}
          {...field('email')}
        />
      </FormField>
      <FormField id="register-password" label="Password" error={errors.password} hint="At least 6 characters.">
        <Input
          {...fieldA11y('register-password', errors.password)}
          type="password"
          autoComplete="new-password"
          {...field('password')}
        />
      </FormField>
      <FormField id="register-confirm-password" label="Confirm Password" error={errors.confirmPassword}>
        <Input
          {...fieldA11y('register-confirm-password', errors.confirmPassword)}
          type="password"
          autoComplete="new-password"
          {...field('confirmPassword')}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Creating account…' : 'Create Account'}
      </Button>
    </form>
  );
}
