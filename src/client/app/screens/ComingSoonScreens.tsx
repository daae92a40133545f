import { History, type LucideIcon } from 'lucide-react';
import { ComingSoonCard } from '@/components/ComingSoonCard';
import { PageHeader } from '@/components/PageHeader';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';

interface ComingSoonScreenProps {
  title: string;
  description: string;
  icon: LucideIcon;
  cardTitle: string;
  features: string[];
}

function ComingSoonScreen({ title, description, icon, cardTitle, features }: ComingSoonScreenProps) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <RequireOrganization>
        {() => <ComingSoonCard icon={icon} title={cardTitle} features={features} />}
      </RequireOrganization>
    </>
  );
}

export function HistoryScreen() {
  return (
    <ComingSoonScreen
      title="History"
      description="A complete audit trail of every item and hand-over"
      icon={History}
      cardTitle="Review and export history"
      features={[
        'Filter by date range, type, status and free text',
        'See delivery rates over any period',
        'Export a report as CSV',
      ]}
    />
  );
}
