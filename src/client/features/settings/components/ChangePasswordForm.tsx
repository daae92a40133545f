import { useState } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { SubmitRow } from '@/components/SubmitButton';
import { toastFailure } from '@/lib/useErrorToast';
import { useChangePassword } from '../api/changePassword';
import { passwordProblem, type PasswordValues } from '../passwordProblem';
import { SettingsCard } from './SettingsCard';

const empty: PasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

interface PasswordFieldProps {
  id: string;
  label: string;
  autoComplete: 'current-password' | 'new-password';
  /** The form's rules and its one problem, described for every field alike. */
  describedBy: string;
  registration: UseFormRegisterReturn;
}

function PasswordField({ id, label, autoComplete, describedBy, registration }: PasswordFieldProps) {
  return (
    <FormField id={id} label={label}>
      <Input id={id} type="password" autoComplete={autoComplete} aria-describedby={describedBy} {...registration} />
    </FormField>
  );
}

export function ChangePasswordForm() {
  const change = useChangePassword();
  const { register, handleSubmit, reset } = useForm({ defaultValues: empty });
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = handleSubmit((values) => {
    const found = passwordProblem(values);
    setProblem(found);
    if (found) return;
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      {
        onSuccess: () => {
          reset(empty);
          toast({ title: 'Password changed', description: 'Your password has been updated.' });
        },
        onError: (err) => toastFailure('Failed to change password', err),
      },
    );
  });

  const describedBy = problem ? 'password-problem password-hint' : 'password-hint';
  return (
    <SettingsCard title="Change password" description="Choose a password you do not use anywhere else.">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <PasswordField
          id="current-password"
          label="Current Password"
          autoComplete="current-password"
          describedBy={describedBy}
          registration={register('currentPassword')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <PasswordField
            id="new-password"
            label="New Password"
            autoComplete="new-password"
            describedBy={describedBy}
            registration={register('newPassword')}
          />
          <PasswordField
            id="confirm-new-password"
            label="Confirm New Password"
            autoComplete="new-password"
            describedBy={describedBy}
            registration={register('confirmPassword')}
          />
        </div>
        {problem && (
          <p
            id="password-problem"
            role="alert"
            className="rounded-lg bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-700 dark:text-red-300"
          >
            {problem}
          </p>
        )}
        <p id="password-hint" className="text-xs text-fg-subtle">
          Password requirements: current password required, new password must be at least 8 characters, passwords must
          match.
        </p>
        <SubmitRow pending={change.isPending} pendingLabel="Changing…">
          Change Password
        </SubmitRow>
      </form>
    </SettingsCard>
  );
}
