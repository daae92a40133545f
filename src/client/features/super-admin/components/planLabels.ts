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

export const STATUS_TONES: Record<SubscriptionStatus, 'blue' | 'green' | 'yellow' | 'neutral'> = {
  trial: 'blue',
  active: 'green',
  expired: 'yellow',
  cancelled: 'neutral',
};
