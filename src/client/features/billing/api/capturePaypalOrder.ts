import type { CaptureReply, UpgradeBody } from '@contract';
import { apiRequest } from '@/lib/api';

/** Captures the approved order; the server applies the plan once PayPal reports it completed. */
export function capturePaypalOrder(organizationId: string, orderId: string, body: UpgradeBody) {
  return apiRequest<CaptureReply>('POST', `/api/paypal/order/${encodeURIComponent(orderId)}/capture`, body, {
    organizationId,
  });
}
