import type { MyOrganization } from '@contract';
import { Building2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '@/components/EmptyState';
import { Card } from '@/components/ui/card';
import { useCurrentOrganization } from '@/lib/currentOrganization';

/** Renders its children for the current organization, or asks to pick one (spec §2). */
export function RequireOrganization({ children }: { children: (organization: MyOrganization) => ReactNode }) {
  const { current } = useCurrentOrganization();
  if (!current) {
    return (
      <Card>
        <EmptyState icon={Building2} title="Please select an organization to continue." />
      </Card>
    );
  }
  return children(current);
}
