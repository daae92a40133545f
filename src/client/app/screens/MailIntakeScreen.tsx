import type { MyOrganization } from '@contract';
import { Lock, Plus } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { Button } from '@/components/ui/button';
import { WriteBlockNotice } from '@/components/WriteBlockNotice';
import { useWriteBlock } from '@/lib/writeBlock';
import { blockedReason } from '@/lib/writeBlockText';
import { LogMailDialog } from '@/features/mail-items/components/LogMailDialog';
import { MailItemList } from '@/features/mail-items/components/MailItemList';
import { WaitingToSync } from '@/features/mail-items/offline/WaitingToSync';
import { RequireOrganization } from '@/features/organizations/components/RequireOrganization';
import { useCurrentOrganization } from '@/lib/currentOrganization';

const BLOCK_NOTICE_ID = 'intake-write-block';

function IntakeBody({ organization }: { organization: MyOrganization }) {
  return (
    <>
      <WaitingToSync organizationId={organization.id} />
      <MailItemList key={organization.id} organizationId={organization.id} />
    </>
  );
}

export function MailIntakeScreen() {
  const { current } = useCurrentOrganization();
  const [logging, setLogging] = useState(false);
  // A trial that ended or a subscription that lapsed: reading stays open, logging is refused (402).
  const block = useWriteBlock();

  return (
    <>
      <PageHeader
        title="Mail Intake"
        description="Process and track incoming mail and packages"
        actions={
          current && (
            <Button
              onClick={() => setLogging(true)}
              className="w-full sm:w-auto"
              disabled={block !== null}
              title={block ? blockedReason(block) : undefined}
              aria-describedby={block ? BLOCK_NOTICE_ID : undefined}
            >
              {block ? <Lock aria-hidden /> : <Plus aria-hidden />} Log New Mail
            </Button>
          )
        }
      />
      {current && block && (
        <WriteBlockNotice
          id={BLOCK_NOTICE_ID}
          block={block}
          area="mail"
          isAdmin={current.role === 'admin'}
          className="mb-6"
        />
      )}
      <RequireOrganization>{(organization) => <IntakeBody organization={organization} />}</RequireOrganization>
      {current && (
        <LogMailDialog key={current.id} organizationId={current.id} open={logging} onOpenChange={setLogging} />
      )}
    </>
  );
}
