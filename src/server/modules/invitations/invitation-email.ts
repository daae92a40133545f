import { INVITATION_TTL_DAYS, type Role } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { hashToken, newToken } from '../../lib/tokens';
import { invitationsRepository } from './invitations.repository';

export type InvitationMail = { to: string; subject: string; text: string; html: string };

/** The link the invitee opens: the sign-in page's Register tab with the email filled in. */
export function invitationLink(appUrl: string, token: string) {
  return `${appUrl.replace(/\/+$/, '')}/auth?invitation=${encodeURIComponent(token)}`;
}

export function invitationEmail(input: {
  to: string;
  organizationName: string;
  inviterName: string;
  role: Role;
  link: string;
}): InvitationMail {
  const { to, organizationName, inviterName, role, link } = input;
  const asRole = role === 'admin' ? 'an admin' : 'a member';
  const subject = `${inviterName} invited you to ${organizationName} on Pigeonhole`;
  const text =
    `Hello,\n\n${inviterName} invited you to join ${organizationName} on Pigeonhole as ${asRole}.\n\n` +
    `Open this link to create your account, or sign in if you already have one, and join:\n\n${link}\n\n` +
    `The invitation works once and expires in ${INVITATION_TTL_DAYS} days. ` +
    `If you were not expecting it, ignore this email.\n`;
  const html =
    `<p>Hello,</p><p>${escapeHtml(inviterName)} invited you to join <strong>${escapeHtml(organizationName)}</strong> ` +
    `on Pigeonhole as ${asRole}.</p>` +
    `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>` +
    `<p>Create your account, or sign in if you already have one. The invitation works once and expires in ` +
    `${INVITATION_TTL_DAYS} days. If you were not expecting it, ignore this email.</p>`;
  return { to, subject, text, html };
}

/**
 * The token of an invitation's link, minted by the notification worker as it sends the email
 * (decision 054): it replaces the invitation's stored hash, so the outbox never holds a link that
 * works. Undefined when the invitation was revoked, used or has expired meanwhile.
 */
export async function mintInvitationToken(
  db: DbOrTx,
  organizationId: string,
  invitationId: string,
): Promise<string | undefined> {
  const token = newToken();
  const set = await invitationsRepository.setToken(db, organizationId, invitationId, hashToken(token), new Date());
  return set ? token : undefined;
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
