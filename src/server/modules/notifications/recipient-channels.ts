import { and, eq } from 'drizzle-orm';
import { NOTIFY_CHANNELS, NOTIFY_CHANNEL_LABELS, NOTIFY_CHANNEL_MESSAGES, type NotifyChannel } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { integrations, type IntegrationConfig } from '../../db/schema';
import { AppError } from '../../lib/errors';

/**
 * Which channels reach a recipient, and which of them they chose (issue 44, decision 065): the one
 * owner of that rule, read by the fan-out (what goes out) and by the recipient's page (what it
 * offers and accepts), so the page never offers what the organization cannot send.
 */

type ActiveIntegration = { type: string; config: IntegrationConfig };

export type ChannelRecipient = {
  email: string | null;
  phone: string | null;
  notifyChannels: NotifyChannel[] | null;
};

export type RecipientChannels = {
  /** What the organization really has and that reaches this person, in NOTIFY_CHANNELS' order. */
  offered: NotifyChannel[];
  /** What they are told on: their choice within what is offered; all offered when they chose none. */
  chosen: ReadonlySet<NotifyChannel>;
};

/** An SMS integration with its whole account (the fan-out sends through none without). */
export const smsReady = (i: ActiveIntegration) =>
  !!(i.config.smsSettings?.accountSid && i.config.smsSettings.authToken && i.config.smsSettings.fromNumber);

/**
 * The channels offered to one person by the organization's active integrations:
 * - email: an email integration with its server, or the platform's (SMTP_URL), and an address;
 * - SMS: an SMS integration with its account, and a phone;
 * - Slack: a Slack workspace connected with its bot token (decision 064) and an email, by which
 *   Slack finds the person;
 * - Teams: a Teams channel that announces arrivals (its card names them in the channel).
 */
export function recipientChannels(
  recipient: ChannelRecipient,
  active: readonly ActiveIntegration[],
  platformEmail: boolean,
): RecipientChannels {
  const has = (type: string, ready: (i: ActiveIntegration) => boolean = () => true) =>
    active.some((i) => String(i.type) === type && ready(i));
  const reaches: Record<NotifyChannel, boolean> = {
    email: !!recipient.email && (platformEmail || has('email', (i) => !!i.config.emailSettings?.smtpHost)),
    sms: !!recipient.phone && has('sms', smsReady),
    slack: !!recipient.email && has('slack', (i) => !!i.config.slackSettings?.botToken),
    teams: has('teams', (i) => !!i.config.teamsSettings?.webhookUrl),
  };
  const offered = NOTIFY_CHANNELS.filter((c) => reaches[c]);
  const picked = recipient.notifyChannels?.filter((c) => reaches[c]) ?? [];
  // A choice none of whose channels reaches them any more (the organization dropped its SMS
  // account): they still hear on what does, as before there was a choice (decision 032).
  return { offered, chosen: new Set(picked.length ? picked : offered) };
}

/** The organization's active integrations, as recipientChannels reads them. */
export async function activeIntegrations(db: DbOrTx, organizationId: string) {
  return db
    .select({ type: integrations.type, config: integrations.config })
    .from(integrations)
    .where(and(eq(integrations.organizationId, organizationId), eq(integrations.isActive, true)));
}

/**
 * A choice sent from the recipient's page, checked against what is offered: null (every channel)
 * always; otherwise a non-empty set within `offered`. 400 `validation_error` naming the channels
 * that are not offered.
 */
export function checkChoice(choice: NotifyChannel[] | null, offered: readonly NotifyChannel[]): NotifyChannel[] | null {
  if (choice === null) return null;
  const unique = NOTIFY_CHANNELS.filter((c) => choice.includes(c));
  if (unique.length === 0) {
    throw new AppError(400, NOTIFY_CHANNEL_MESSAGES.empty, 'validation_error', [
      { path: 'notifyChannels', message: NOTIFY_CHANNEL_MESSAGES.empty },
    ]);
  }
  const missing = unique.filter((c) => !offered.includes(c));
  if (missing.length) {
    const message = NOTIFY_CHANNEL_MESSAGES.notOffered(missing.map((c) => NOTIFY_CHANNEL_LABELS[c]));
    throw new AppError(400, message, 'channel_not_offered', [{ path: 'notifyChannels', message }]);
  }
  return unique;
}
