import type { MyOrganization } from '@contract';
import { PageHeader } from '@/components/PageHeader';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';
import { usePendingSummary } from '@/features/mail-items/api/pendingSummary';
import { PendingCounters } from '@/features/mail-items/components/PendingCounters';
import { PendingPickupsTable } from '@/features/mail-items/components/PendingPickupsTable';
import { HandOverSearch } from '@/features/mail-items/handover/HandOverSearch';
import { useErrorToast } from '@/lib/useErrorToast';

function PendingPickups({ organization }: { organization: MyOrganization }) {
  const summary = usePendingSummary(organization.id);
  useErrorToast(summary.error, 'Failed to fetch pending items');
  return (
    <div className="space-y-6">
      <HandOverSearch organizationId={organization.id} />
      <PendingCounters data={summary.data} isLoading={summary.isPending} />
      <PendingPickupsTable organizationId={organization.id} />
    </div>
  );
}

export function PendingPickupsScreen() {
  return (
    <>
      <PageHeader title="Pending Pickups" description="Items waiting to be collected, overdue ones first" />
      <RequireOrganization>
        {(organization) => <PendingPickups key={organization.id} organization={organization} />}
      </RequireOrganization>
    </>
  );
}
