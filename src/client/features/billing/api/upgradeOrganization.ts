import type { Organization, UpgradeBody } from '@contract';
import { apiRequest } from '@/lib/api';

/**
 * What the spec's client posts after a PayPal payment. The server grants nothing by it: it answers
 * the organization when a verified payment backs this plan and seat count (402 otherwise).
 */
export function upgradeOrganization(organizationId: string, body: UpgradeBody) {
  return apiRequest<Organization>('POST', `/api/organizations/${organizationId}/upgrade`, body, { organizationId });
}
