import { PageHeader } from '@/components/PageHeader';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import {
  RecipientsView,
  recipientsDescription,
  recipientsTitle,
} from '@/features/recipients/components/RecipientsView';

export function RecipientsScreen() {
  const { current } = useCurrentOrganization();
  if (!current) {
    return (
      <>
        <PageHeader title={recipientsTitle} description={recipientsDescription} />
        <RequireOrganization>{() => null}</RequireOrganization>
      </>
    );
  }
  // keyed so that switching organizations starts on page 1 with an empty search
  return <RecipientsView key={current.id} organization={current} />;
}
