import { PageHeader } from '@/components/PageHeader';
import { HistoryView, historyDescription, historyTitle } from '@/features/mail-items/components/HistoryView';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';
import { useCurrentOrganization } from '@/lib/currentOrganization';

export function HistoryScreen() {
  const { current } = useCurrentOrganization();
  if (!current) {
    return (
      <>
        <PageHeader title={historyTitle} description={historyDescription} />
        <RequireOrganization>{() => null}</RequireOrganization>
      </>
    );
  }
  // keyed so that switching organizations drops the expanded row and the pending export
  return <HistoryView key={current.id} organization={current} />;
}
