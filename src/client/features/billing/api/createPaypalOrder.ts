import { CURRENCY, monthlyTotalCents, type PaidPlanType, type PaypalOrderReply } from '@contract';
import { apiRequest } from '@/lib/api';

/**
 * A PayPal order for one month of the plan (spec §7: amount, currency, intent). The server prices
 * it itself and refuses an amount that disagrees.
 */
export function createPaypalOrder(organizationId: string, planType: PaidPlanType, userCount: number) {
  return apiRequest<PaypalOrderReply>(
    'POST',
    '/api/paypal/order',
    {
      planType,
      userCount,
      amount: (monthlyTotalCents(planType, userCount) / 100).toFixed(2),
      currency: CURRENCY,
      intent: 'CAPTURE',
    },
    { organizationId },
  );
}
