import { INVITATION_TTL_DAYS, type Role } from '../../../contract';
import type { OutgoingMail } from '../../lib/mailer';

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
}): OutgoingMail {
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

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
