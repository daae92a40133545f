import type { MyOrganization } from '@contract';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { Button } from '@/components/ui/button';
import { LogMailDialog } from '@/features/mail-items/components/LogMailDialog';
import { MailItemList } from '@/features/mail-items/components/MailItemList';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';
import { useCurrentOrganization } from '@/features/organizations/hooks/useCurrentOrganization';

function IntakeBody({ organization }: { organization: MyOrganization }) {
  return <MailItemList key={organization.id} organizationId={organization.id} />;
}

export function MailIntakeScreen() {
  const { current } = useCurrentOrganization();
  const [logging, setLogging] = useState(false);

  return (
    <>
      <PageHeader
        title="Mail Intake"
        description="Process and track incoming mail and packages"
        actions={
          current && (
            <Button onClick={() => setLogging(true)} className="w-full sm:w-auto">
              <Plus aria-hidden /> Log New Mail
            </Button>
          )
        }
      />
      <RequireOrganization>{(organization) => <IntakeBody organization={organization} />}</RequireOrganization>
      {current && (
        <LogMailDialog key={current.id} organizationId={current.id} open={logging} onOpenChange={setLogging} />
      )}
    </>
  );
}
