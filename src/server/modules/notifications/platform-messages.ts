import type { Db } from '../../db/client';
import { LINK_TOKEN_PLACEHOLDER, isPlatformMessageEvent, type LinkToMint } from '../../lib/outbox';
import { mintPasswordToken, mintVerificationToken } from '../auth/account-links';
import { mintInvitationToken } from '../invitations/invitation-email';
import { mintPortalLink } from '../recipients/page-links';
import type { JobRow } from './queue.repository';

/**
 * The platform's own messages (lib/outbox.ts, decision 054): sign-in links, account notices,
 * invitations and a recipient's requested page link. Rendered by the module that queued them,
 * with LINK_TOKEN_PLACEHOLDER where a link's token goes; the token is minted here, as the message
 * is sent, so no row of the outbox (queued, sent, failed, or kept by retention) holds a live link.
 */
export const isPlatformMessage = (job: Pick<JobRow, 'event'>) => isPlatformMessageEvent(job.event);

export const PLATFORM_SKIP_REASONS = {
  linkGone: 'The link is no longer wanted (the invitation was revoked or used, or the address is already proven)',
  noSmtp: 'No SMTP_URL is configured: the message was written to the server log',
} as const;

/** Mints the message's link token, or answers why it is not sent; a message without a link needs none. */
export async function mintLink(
  db: Db,
  job: Pick<JobRow, 'organizationId' | 'recipientId' | 'payload'>,
): Promise<{ token?: string } | { skip: string }> {
  const mint = job.payload.mint as LinkToMint | undefined;
  if (!mint) return {};
  let token: string | undefined;
  switch (mint.kind) {
    case 'verify_email':
      token = await mintVerificationToken(db, mint.userId);
      break;
    case 'password':
      token = await mintPasswordToken(db, mint.userId, mint.purpose);
      break;
    case 'invitation':
      token = job.organizationId ? await mintInvitationToken(db, job.organizationId, mint.invitationId) : undefined;
      break;
    case 'portal':
      token =
        job.organizationId && job.recipientId
          ? await mintPortalLink(db, job.organizationId, job.recipientId, 'requested')
          : undefined;
      break;
  }
  return token ? { token } : { skip: PLATFORM_SKIP_REASONS.linkGone };
}

/** The text with the minted token in place of the mark (the token was made URL-safe: base64url). */
export const withToken = (text: string, token: string | undefined) =>
  token === undefined ? text : text.replaceAll(LINK_TOKEN_PLACEHOLDER, token);
