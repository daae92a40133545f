import type { Organization } from '@contract';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { useOrganization } from '@/features/organizations/api/organization';
import { useUpdateOrganization } from '@/features/organizations/api/updateOrganization';
import {
  OrganizationFields,
  updateOrganizationResolver,
  type OrganizationFormValues,
} from '@/features/organizations/components/OrganizationFields';
import { useErrorToast } from '@/lib/useErrorToast';
import { toastFailure } from '@/lib/useErrorToast';

function formValues(org: Organization): OrganizationFormValues {
  return {
    name: org.name,
    address: org.address ?? '',
    contactName: org.contactName ?? '',
    contactEmail: org.contactEmail ?? '',
    contactPhone: org.contactPhone ?? '',
  };
}

function OrganizationDetailsForm({ organization }: { organization: Organization }) {
  const update = useUpdateOrganization(organization.id);
  const { register, handleSubmit, formState, reset } = useForm({
    resolver: updateOrganizationResolver,
    defaultValues: formValues(organization),
  });

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
      <OrganizationFields idPrefix="org-settings" register={register} errors={formState.errors} />
      <p className="text-sm text-slate-500">
        Timezone: <span className="font-medium text-slate-700">{organization.timezone}</span>. "Today" on the dashboard
        and in reports follows this timezone.
      </p>
      <div className="flex justify-end">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}

/** Admins edit the organization's name, address and contact details. */
export function OrganizationSettingsForm({ organizationId }: { organizationId: string }) {
  const { data, isPending, error } = useOrganization(organizationId);
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
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-10 w-full" />
            ))}
          </div>
        ) : data ? (
          <OrganizationDetailsForm key={data.id} organization={data} />
        ) : (
          <p className="text-sm text-slate-500">The organization details could not be loaded.</p>
        )}
      </CardContent>
    </Card>
  );
}
