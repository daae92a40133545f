import type { PortalItemPage } from '@contract';
import { withQuery } from '@/lib/api';
import { portalRequest } from './portalRequest';

/** GET /api/portal/items: the recipient's waiting or past items, a page of them and how many in all. */
export function fetchPortalItems(state: 'waiting' | 'past', offset: number, limit: number) {
  return portalRequest<PortalItemPage>('GET', withQuery('/api/portal/items', { state, limit, offset }));
}
