import { PageHeader } from '@/components/PageHeader';
import { useSignedInUser } from '@/features/auth/hooks/useSignedInUser';
import {
  IntegrationsView,
  integrationsDescription,
  integrationsTitle,
} from '@/features/integrations/components/IntegrationsView';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';
import { useCurrentOrganization } from '@/features/organizations/hooks/useCurrentOrganization';

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
