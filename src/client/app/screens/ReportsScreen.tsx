import { PageHeader } from '@/components/PageHeader';
import { ReportsView } from '@/features/analytics/components/ReportsView';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';

export function ReportsScreen() {
  return (
    <>
      <PageHeader title="Reports" description="How the mailroom is doing: volumes, pickup times and busy hours" />
      <RequireOrganization>
        {(organization) => <ReportsView key={organization.id} organization={organization} />}
      </RequireOrganization>
    </>
  );
}
