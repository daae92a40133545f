import type { SsoLookupReply } from '@contract';
import { apiRequest } from '@/lib/api';

/** Whether this address signs in through its organization's provider (the sign-in page asks, debounced). */
export function lookupSso(email: string) {
  return apiRequest<SsoLookupReply>('POST', '/api/sso/lookup', { email }, { organizationId: false });
}
