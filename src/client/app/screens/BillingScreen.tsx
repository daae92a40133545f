import { PageHeader } from '@/components/PageHeader';
import { BillingView } from '@/features/billing/components/BillingView';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';

/** /settings-billing and /subscription-management: the billing screen on its own (spec §2). */
export function BillingScreen() {
  return (
    <>
      <PageHeader title="Billing and Plans" description="Your plan, seats, licences and payments." />
      <RequireOrganization>
        {(organization) => <BillingView key={organization.id} organization={organization} />}
      </RequireOrganization>
    </>
  );
}
