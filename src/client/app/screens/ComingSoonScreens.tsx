import { History, Inbox, PackageOpen, Users, type LucideIcon } from 'lucide-react';
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

export function MailIntakeScreen() {
  return (
    <ComingSoonScreen
      title="Mail Intake"
      description="Process and track incoming mail and packages"
      icon={Inbox}
      cardTitle="Log incoming mail"
      features={[
        'Log packages, letters and certified mail as they arrive',
        'Capture a photo, scan a barcode or upload a file',
        'Match recipients and choose a storage location',
      ]}
    />
  );
}

export function PendingPickupsScreen() {
  return (
    <ComingSoonScreen
      title="Pending Pickups"
      description="Items waiting to be collected, overdue ones first"
      icon={PackageOpen}
      cardTitle="Hand items over"
      features={[
        'See every item not yet collected, with overdue items on top',
        'Notify recipients and mark items delivered in one click',
        'Track totals for pending, overdue and notified items',
      ]}
    />
  );
}

export function RecipientsScreen() {
  return (
    <ComingSoonScreen
      title="Recipients"
      description="The guests, employees and residents who receive mail"
      icon={Users}
      cardTitle="Manage recipients"
      features={[
        'Add guests, employees and residents with unit and department',
        'Search by name, email, unit or department',
        'Deactivate people who have moved on without losing history',
      ]}
    />
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
