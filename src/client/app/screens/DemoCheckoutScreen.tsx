import { BILLING_MESSAGES } from '@contract';
import { Building2 } from 'lucide-react';
import { EmptyState } from '@/components/EmptyState';
import { Card } from '@/components/ui/card';
import { DemoCheckoutView } from '@/features/billing/components/DemoCheckoutView';
import { useCurrentOrganization } from '@/lib/currentOrganization';
import type { SignedInScreenProps } from '../routes';

/** /checkout/demo/{id}: the demo payment provider's page, outside the app's shell like a real provider's. */
export function DemoCheckoutScreen({ params }: SignedInScreenProps) {
  const checkoutId = params.id ?? '';
  const { current } = useCurrentOrganization();
  if (!current) {
    return (
      <Card className="m-6">
        <EmptyState icon={Building2} title={BILLING_MESSAGES.selectOrganization} />
      </Card>
    );
  }
  return <DemoCheckoutView key={current.id} organizationId={current.id} checkoutId={checkoutId} />;
}
