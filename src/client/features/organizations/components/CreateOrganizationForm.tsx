import type { MyOrganization } from '@contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import { toastFailure } from '@/lib/useErrorToast';
import { useCreateOrganization } from '../api/createOrganization';
import { createOrganizationForm, emptyOrganizationForm } from '../organizationForms';
import { OrganizationFields } from './OrganizationFields';

interface CreateOrganizationFormProps {
  idPrefix: string;
  /** The secondary button: "Back" in onboarding, "Cancel" in the dialog. */
  cancelLabel: string;
  onCancel: () => void;
  onCreated?: (organization: MyOrganization) => void;
}

/** Creates an organization, then makes it the current one. */
export function CreateOrganizationForm({ idPrefix, cancelLabel, onCancel, onCreated }: CreateOrganizationFormProps) {
  const { select } = useCurrentOrganization();
  const create = useCreateOrganization({
    onCreated: (organization) => {
      select(organization.id);
      toast({ title: 'Success!', description: 'Your organization has been created successfully.' });
      onCreated?.(organization);
    },
    onFailed: (err) => toastFailure('Error', err, 'Failed to create organization.'),
  });
  const { register, handleSubmit, formState } = useForm({
    resolver: zodResolver(createOrganizationForm),
    defaultValues: emptyOrganizationForm,
  });

  const onSubmit = handleSubmit((values) => create.mutate(values));

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <OrganizationFields idPrefix={idPrefix} register={register} errors={formState.errors} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={create.isPending}>
          {cancelLabel}
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create Organization'}
        </Button>
      </div>
    </form>
  );
}
