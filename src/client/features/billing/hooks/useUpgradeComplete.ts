import { BILLING_MESSAGES, PLANS, type PaidPlanType } from '@contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { toast } from '@/components/ui/use-toast';
import { invalidateBilling } from '../api/invalidateBilling';

/** Spec §9: the dashboard opens 1.5 s after an upgrade, once the success toast has been seen. */
export const UPGRADE_REDIRECT_MS = 1_500;

/**
 * After a verified payment: the spec's success toast, every organization and billing query
 * refreshed (banner, notices, seat limits), then the dashboard. Leaving the page first cancels the
 * redirect.
 */
export function useUpgradeComplete(organizationId: string) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  return useCallback(
    (planType: PaidPlanType) => {
      toast({
        title: BILLING_MESSAGES.paymentSucceededTitle,
        description: BILLING_MESSAGES.paymentSucceeded(PLANS[planType].name),
      });
      void invalidateBilling(queryClient, organizationId);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => navigate('/dashboard'), UPGRADE_REDIRECT_MS);
    },
    [queryClient, organizationId, navigate],
  );
}
