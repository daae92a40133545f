import type { Organization } from '@contract';
import { AlertTriangle, CheckCircle2, Clock, XCircle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { SUBSCRIPTION_STATUS_STYLES } from '@/lib/statusStyles';
import { useNow } from '@/lib/useNow';
import { statusLabel } from '../planState';

type PlanFields = Pick<Organization, 'planType' | 'subscriptionStatus' | 'trialEndDate'>;

/** The subscription status in words, with an icon, so it never rests on colour alone. */
export function PlanStatusBadge({ organization }: { organization: PlanFields }) {
  const now = useNow();
  const label = statusLabel(organization, now);
  const status = organization.subscriptionStatus;
  // A trial past its end reads "Trial expired" and takes the expired colour.
  const shown = status === 'trial' && label !== 'Trial' ? 'expired' : status;
  const Icon = { active: CheckCircle2, trial: Clock, cancelled: XCircle, expired: AlertTriangle }[shown];
  return (
    <Badge tone={SUBSCRIPTION_STATUS_STYLES[shown].tone} className="gap-1">
      <Icon aria-hidden className="size-3" /> {label}
    </Badge>
  );
}
