import type { PortalMe } from '@contract';
import { portalRequest } from './portalRequest';

/** POST /api/portal/session: the link's token exchanged for the page's session cookie. */
export function openPortalSession(token: string) {
  return portalRequest<PortalMe>('POST', '/api/portal/session', { token });
}

/** DELETE /api/portal/session: signs the recipient out of their page. */
export function signOutOfPortal() {
  return portalRequest<void>('DELETE', '/api/portal/session');
}
