import { PORTAL_EMAILED_LINK_DAYS, PORTAL_REQUESTED_LINK_MINUTES } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { hashToken, newToken } from '../../lib/tokens';
import { portalRepository } from './portal.repository';

/** What an emailed link's address is made of: the token rides in the fragment (decision 032). */
export const portalLinkUrl = (publicUrl: string, token: string) => `${publicUrl}/my/open#token=${token}`;

const LIFETIME_MS = {
  requested: PORTAL_REQUESTED_LINK_MINUTES * 60_000,
  arrival: PORTAL_EMAILED_LINK_DAYS * 24 * 3_600_000,
} as const;

/**
 * A new single-use link for one recipient in one organization: the token goes into the message
 * and nowhere else, the database keeps its hash.
 */
export async function mintPortalLink(
  db: DbOrTx,
  organizationId: string,
  recipientId: string,
  purpose: 'requested' | 'arrival',
): Promise<string> {
  const token = newToken();
  await portalRepository.insertLink(db, {
    tokenHash: hashToken(token),
    organizationId,
    recipientId,
    purpose,
    expiresAt: new Date(Date.now() + LIFETIME_MS[purpose]),
  });
  return token;
}
