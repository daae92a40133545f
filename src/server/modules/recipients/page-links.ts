import { PORTAL_EMAILED_LINK_DAYS, PORTAL_REQUESTED_LINK_MINUTES } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { hashToken, newToken } from '../../lib/tokens';
import { and, eq } from 'drizzle-orm';
import { recipientLinks, recipientSessions } from '../../db/schema';

/*
 * The recipient's page links (decision 032) are minted here, below notifications and the portal:
 * the outbox's worker mints one as it sends (decision 054), the portal only spells the address.
 */

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
  await db.insert(recipientLinks).values({
    tokenHash: hashToken(token),
    organizationId,
    recipientId,
    purpose,
    expiresAt: new Date(Date.now() + LIFETIME_MS[purpose]),
  });
  return token;
}

/**
 * Every way into their page ends (decision 032): unused sign-in links and signed-in sessions.
 * Answers the links and sessions removed. Erasure and deactivation (issue 41 item 8) both end it.
 */
export async function endPageAccess(tx: DbOrTx, organizationId: string, recipientId: string): Promise<number> {
  const links = await tx
    .delete(recipientLinks)
    .where(and(eq(recipientLinks.organizationId, organizationId), eq(recipientLinks.recipientId, recipientId)))
    .returning({ id: recipientLinks.tokenHash });
  const sessions = await tx
    .delete(recipientSessions)
    .where(and(eq(recipientSessions.organizationId, organizationId), eq(recipientSessions.recipientId, recipientId)))
    .returning({ id: recipientSessions.sid });
  return links.length + sessions.length;
}
