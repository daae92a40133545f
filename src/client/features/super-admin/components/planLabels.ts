import type { PlanType, SubscriptionStatus } from '@contract';

export const PLAN_LABELS: Record<PlanType, string> = {
  trial: 'Trial',
  starter: 'Starter',
  professional: 'Professional',
  enterprise: 'Enterprise',
};

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  trial: 'Trial',
  active: 'Active',
  expired: 'Expired',
  cancelled: 'Cancelled',
};
