import { zodResolver } from '@hookform/resolvers/zod';
import { UpdateUserBody, type User } from '@contract';
import { useForm } from 'react-hook-form';
import { FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { SubmitRow } from '@/components/SubmitButton';
import { toastFailure } from '@/lib/useErrorToast';
import { useT } from '@/lib/i18n/catalogue';
import { accountMessages } from '@/lib/i18n/namespaces/account';
import { useUpdateAccount } from '../api/updateAccount';
import { SettingsCard } from './SettingsCard';

/** The signed-in person's name. */
export function AccountForm({ user }: { user: User }) {
  const t = useT(accountMessages);
  const update = useUpdateAccount();
  const { register, handleSubmit, formState, reset } = useForm({
    resolver: zodResolver(UpdateUserBody),
    defaultValues: { firstName: user.firstName ?? '', lastName: user.lastName ?? '' },
  });
  const { errors } = formState;

  const onSubmit = handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: (saved) => {
        reset({ firstName: saved.firstName ?? '', lastName: saved.lastName ?? '' });
        toast({ title: t('profile.saved'), description: t('profile.savedDetail') });
      },
      onError: (err) => toastFailure(t('profile.failed'), err),
    }),
  );

  return (
    <SettingsCard title={t('profile.title')} description={t('profile.description')}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="account-first-name" label={t('profile.firstName')} error={errors.firstName?.message}>
            <Input
              {...fieldA11y('account-first-name', errors.firstName?.message)}
              autoComplete="given-name"
              {...register('firstName')}
            />
          </FormField>
          <FormField id="account-last-name" label={t('profile.lastName')} error={errors.lastName?.message}>
            <Input
              {...fieldA11y('account-last-name', errors.lastName?.message)}
              autoComplete="family-name"
              {...register('lastName')}
            />
          </FormField>
        </div>
        <div className="space-y-1">
          <p className="text-sm font-medium text-fg-secondary">{t('profile.email')}</p>
          <p className="text-sm text-fg-muted">{user.email}</p>
        </div>
        <SubmitRow pending={update.isPending} pendingLabel={t('profile.saving')}>
          {t('profile.save')}
        </SubmitRow>
      </form>
    </SettingsCard>
  );
}
