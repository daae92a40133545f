import type { Organization } from '@contract';
import { AlertTriangle, CheckCircle2, Clock, XCircle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { useNow } from '../hooks/useNow';
import { statusLabel } from '../planState';

type PlanFields = Pick<Organization, 'planType' | 'subscriptionStatus' | 'trialEndDate'>;

/** The subscription status in words, with an icon, so it never rests on colour alone. */
export function PlanStatusBadge({ organization }: { organization: PlanFields }) {
  const now = useNow();
  const label = statusLabel(organization, now);
  if (organization.subscriptionStatus === 'active') {
    return (
      <Badge tone="green" className="gap-1">
        <CheckCircle2 aria-hidden className="size-3" /> {label}
      </Badge>
    );
  }
  if (organization.subscriptionStatus === 'trial' && label === 'Trial') {
    return (
      <Badge tone="blue" className="gap-1">
        <Clock aria-hidden className="size-3" /> {label}
      </Badge>
    );
  }
  const Icon = organization.subscriptionStatus === 'cancelled' ? XCircle : AlertTriangle;
  return (
    <Badge className="gap-1 border-red-200 bg-red-50 text-red-700">
      <Icon aria-hidden className="size-3" /> {label}
    </Badge>
  );
}
