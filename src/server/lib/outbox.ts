import type { DbOrTx } from '../db/client';
import { notificationJobs } from '../db/schema';

/**
 * The one way a module sends an email or an SMS that is not about a mail item (decision 054): a
 * row in the notifications outbox (decision 010), written in the caller's transaction where there
 * is one, sent by the notification worker, which retries, logs and throttles. On this floor, below
 * every module, so auth, invitations and the recipient's page need nothing from notifications.
 */
export const PLATFORM_MESSAGE_EVENTS = {
  /** The link that proves a user's address. */
  verifyEmail: 'account.verify_email',
  /** The link that sets a user's password: a reset, or a listed platform administrator's claim. */
  passwordLink: 'account.password_link',
  /** A notice to a user about their account (two-factor turned on or off, codes being guessed). */
  accountNotice: 'account.notice',
  /** An organization's invitation to an address. */
  invitation: 'invitation.sent',
  /** A recipient's link to their page, asked for on the page (email or the organization's SMS). */
  portalLink: 'portal.link_requested',
} as const;
export type PlatformMessageEvent = (typeof PLATFORM_MESSAGE_EVENTS)[keyof typeof PLATFORM_MESSAGE_EVENTS];

export const isPlatformMessageEvent = (event: string): event is PlatformMessageEvent =>
  (Object.values(PLATFORM_MESSAGE_EVENTS) as string[]).includes(event);

/**
 * Where the link's token goes in a queued message's text. A link is a live credential, so the
 * outbox never holds one: the worker mints the token when it sends (one per attempt, like the
 * arrival message's page link, decision 032) and puts it in place of this mark in memory only.
 * URL-safe and HTML-safe, so encodeURIComponent and escapeHtml leave it as it is.
 */
export const LINK_TOKEN_PLACEHOLDER = '__LINK_TOKEN__';

/** The token the worker mints for a message, and for what. */
export type LinkToMint =
  | { kind: 'verify_email'; userId: string }
  | { kind: 'password'; userId: string; purpose: 'reset' | 'super_admin_claim' }
  | { kind: 'invitation'; invitationId: string }
  /** The recipient's page (the job's organization and recipient). */
  | { kind: 'portal' };

type Common = {
  event: PlatformMessageEvent;
  /** Null for a user's own messages; the organization's for invitations and recipients' links. */
  organizationId?: string | null;
  recipientId?: string | null;
  /** An SMS goes through this SMS integration of the organization. */
  integrationId?: string | null;
  /** What the export of a recipient's data calls the message (recipients.personal-data). */
  kind: string;
  mint?: LinkToMint;
};
export type QueuedEmail = Common & { channel: 'email'; to: string; subject: string; text: string; html?: string };
export type QueuedSms = Common & { channel: 'sms'; to: string; body: string };

/** Queues one message; the caller's transaction decides whether it exists. */
export async function queueMessage(db: DbOrTx, message: QueuedEmail | QueuedSms): Promise<void> {
  const content =
    message.channel === 'email'
      ? { subject: message.subject, text: message.text, ...(message.html ? { html: message.html } : {}) }
      : { body: message.body };
  await db.insert(notificationJobs).values({
    organizationId: message.organizationId ?? null,
    recipientId: message.recipientId ?? null,
    integrationId: message.integrationId ?? null,
    channel: message.channel,
    event: message.event,
    destination: message.to,
    payload: { kind: message.kind, ...content, ...(message.mint ? { mint: message.mint } : {}) },
  });
}
