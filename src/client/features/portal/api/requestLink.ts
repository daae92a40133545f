import type { PortalLinkRequestBody } from '@contract';
import { portalRequest } from './portalRequest';

/** POST /api/portal/links: a link to the page, by email or SMS; the answer never says whether the address is known. */
export function requestPortalLink(address: string) {
  return portalRequest<{ message: string }>('POST', '/api/portal/links', { address } satisfies PortalLinkRequestBody);
}
