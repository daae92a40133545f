import { PageHeader } from '@/components/PageHeader';
import { useSignedInUser } from '@/lib/resources/currentUser';
import {
  IntegrationsView,
  integrationsDescription,
  integrationsTitle,
} from '@/features/integrations/components/IntegrationsView';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';
import { useCurrentOrganization } from '@/lib/currentOrganization';

/** /integrations (spec §2): no sidebar link; reached from Settings > Notifications and the mail item messages. */
export function IntegrationsScreen() {
  const { current } = useCurrentOrganization();
  const user = useSignedInUser();
  if (!current) {
    return (
      <>
        <PageHeader title={integrationsTitle} description={integrationsDescription} />
        <RequireOrganization>{() => null}</RequireOrganization>
      </>
    );
  }
  return <IntegrationsView key={current.id} organization={current} userEmail={user.email} />;
}
