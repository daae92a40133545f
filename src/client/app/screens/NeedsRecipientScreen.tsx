import { PageHeader } from '@/components/PageHeader';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';
import { NeedsRecipientList } from '@/features/mail-items/needs-recipient/NeedsRecipientList';

/** Items logged without a recipient, until the desk picks one (decision 041). */
export function NeedsRecipientScreen() {
  return (
    <>
      <PageHeader title="Needs a recipient" description="Items logged when the desk could not tell whom they are for" />
      <RequireOrganization>
        {(organization) => <NeedsRecipientList key={organization.id} organizationId={organization.id} />}
      </RequireOrganization>
    </>
  );
}
