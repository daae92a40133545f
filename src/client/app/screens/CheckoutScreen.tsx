import { BILLING_MESSAGES } from '@contract';
import { Building2 } from 'lucide-react';
import { EmptyState } from '@/components/EmptyState';
import { PageHeader } from '@/components/PageHeader';
import { Card } from '@/components/ui/card';
import { CheckoutView } from '@/features/billing/components/CheckoutView';
import { useCurrentOrganization } from '@/lib/currentOrganization';

/** /checkout (spec §2 "Checkout"): upgrading the current organization. */
export function CheckoutScreen() {
  const { current } = useCurrentOrganization();
  return (
    <>
      <PageHeader title="Upgrade Your Plan" description={current ? `Choose a plan for ${current.name}.` : undefined} />
      {current ? (
        <CheckoutView key={current.id} organization={current} />
      ) : (
        <Card>
          <EmptyState icon={Building2} title={BILLING_MESSAGES.selectOrganization} />
        </Card>
      )}
    </>
  );
}
