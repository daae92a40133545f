import { zodResolver } from '@hookform/resolvers/zod';
import type { Organization } from '@contract';
import { Building2 } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';

import { LoadError } from '@/components/ListState';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useOrganization } from '@/lib/resources/organizations';
import { toastFailure, useErrorToast } from '@/lib/useErrorToast';
import { useUpdateOrganization } from '../api/updateOrganization';
import { organizationDetailsForm, type OrganizationDetailsValues } from '../organizationForms';
import { OrganizationFields } from './OrganizationFields';
import { OrganizationLogoField } from './OrganizationLogoField';

const resolver = zodResolver(organizationDetailsForm);

function formValues(org: Organization): OrganizationDetailsValues {
  return {
    name: org.name,
    address: org.address ?? '',
    contactName: org.contactName ?? '',
    contactEmail: org.contactEmail ?? '',
    contactPhone: org.contactPhone ?? '',
    logoUrl: org.logoUrl ?? '',
  };
}

function OrganizationDetailsForm({ organization }: { organization: Organization }) {
  const update = useUpdateOrganization(organization.id);
  const { register, handleSubmit, formState, reset, control } = useForm({
    resolver,
    defaultValues: formValues(organization),
  });
  const { errors, isDirty } = formState;
  const [logoUrl, name] = useWatch({ control, name: ['logoUrl', 'name'] });

  const onSubmit = handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: (saved) => {
        reset(formValues(saved));
        toast({ title: 'Settings saved', description: 'Your organization details have been updated.' });
      },
      onError: (err) => toastFailure('Error updating settings', err),
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <OrganizationFields idPrefix="org-settings" register={register} errors={errors} />
      <OrganizationLogoField
        id="org-settings-logoUrl"
        url={logoUrl ?? ''}
        name={name}
        error={errors.logoUrl}
        registration={register('logoUrl')}
      />
      <p className="text-sm text-fg-subtle">
        Timezone: <span className="font-medium text-fg-secondary">{organization.timezone}</span>. "Today" on the
        dashboard and in reports follows this timezone.
      </p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {isDirty && (
          <Button variant="outline" onClick={() => reset(formValues(organization))} disabled={update.isPending}>
            Discard changes
          </Button>
        )}
        <Button type="submit" disabled={update.isPending || !isDirty}>
          {update.isPending ? 'Saving…' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}

/** Admins edit the organization's name, address, contact details and logo. */
export function OrganizationSettingsForm({ organizationId }: { organizationId: string }) {
  const { data, isPending, error, refetch } = useOrganization(organizationId);
  useErrorToast(error, 'Failed to fetch organization');

  return (
    <Card>
      <CardHeader>
        <CardTitle>Organization details</CardTitle>
        <CardDescription>Shown to your team and used on notifications to recipients.</CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="space-y-4">
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} className="h-10 w-full" />
            ))}
          </div>
        ) : data ? (
          <OrganizationDetailsForm key={data.id} organization={data} />
        ) : (
          <LoadError
            icon={Building2}
            title="The organization details could not be loaded"
            onRetry={() => void refetch()}
          />
        )}
      </CardContent>
    </Card>
  );
}
