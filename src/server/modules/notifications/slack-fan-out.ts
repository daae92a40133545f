import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { itemTypeLabel, type MailItem } from '../../../contract';
import { type integrations, notificationJobs, type recipients } from '../../db/schema';
import { STAFF_EVENTS } from '../../lib/staff-channel';
import { renderEmail, type MessageContext, type MessageKind } from './messages';
import type { JobInsert, JobRow } from './queue.repository';
import type { SlackRecipientPayload } from './slack-send';

type IntegrationRow = typeof integrations.$inferSelect;
type RecipientRow = typeof recipients.$inferSelect;

/** A Slack integration that can send: on, with a token (attention is checked as it sends). */
export const slackIntegrationOf = (active: readonly IntegrationRow[]) =>
  active.find((i) => i.type === 'slack' && i.isActive && !!i.config.slackSettings?.botToken);

/**
 * The recipient's Slack DM of an event (decision 064), beside the email and SMS fan-out.ts writes:
 * when the organization has a Slack integration and the recipient an email (Slack finds people
 * by it). Called only for a recipient who may be told (not opted out, item waiting or receipt).
 * The words are the rendered email's (`renderEmail`): the same message, in the same language.
 * An arrival already sent on Slack for another event of the item (Mark Notified after the
 * intake's) is not sent twice.
 */
export async function slackRecipientJobs(
  db: DbOrTx,
  input: {
    event: JobRow;
    base: Pick<JobInsert, 'organizationId' | 'event' | 'mailItemId' | 'parentId'>;
    kind: MessageKind;
    recipient: RecipientRow;
    context: MessageContext;
    active: readonly IntegrationRow[];
  },
): Promise<JobInsert[]> {
  const { event, base, kind, recipient, context } = input;
  const slack = slackIntegrationOf(input.active);
  if (!slack || !recipient.email) return [];
  const dedupeKey = `${event.id}:slack:${recipient.id}`;
  if (kind === 'arrival' && event.mailItemId) {
    const [earlier] = await db
      .select({ id: notificationJobs.id })
      .from(notificationJobs)
      .where(
        and(
          eq(notificationJobs.organizationId, slack.organizationId),
          eq(notificationJobs.mailItemId, event.mailItemId),
          eq(notificationJobs.channel, 'slack'),
          inArray(notificationJobs.status, ['queued', 'sending', 'sent']),
          sql`${notificationJobs.payload}->>'kind' = 'arrival'`,
          ne(notificationJobs.parentId, event.id),
        ),
      )
      .limit(1);
    if (earlier) {
      return [
        {
          ...base,
          channel: 'slack',
          recipientId: recipient.id,
          integrationId: slack.id,
          destination: recipient.email,
          status: 'skipped',
          skipReason: 'The recipient was already sent the arrival message for this item',
          dedupeKey,
        },
      ];
    }
  }
  const rendered = renderEmail(kind, context);
  const payload: SlackRecipientPayload = {
    kind,
    subject: rendered.subject,
    text: rendered.text,
    pickupCode: kind === 'receipt' ? null : context.recipient.pickupCode,
    portalLink: !!context.portalUrl,
  };
  return [
    {
      ...base,
      channel: 'slack',
      recipientId: recipient.id,
      integrationId: slack.id,
      destination: recipient.email,
      payload,
      dedupeKey,
    },
  ];
}

/**
 * The Slack staff channel's message for an item logged without a recipient (decision 064): from
 * the item's `mail_item.needs_recipient` event (written with the intake, decision 065), so it is
 * queued in the outbox like every message, once per item. Nothing without a staff channel.
 */
export function slackStaffNeedsRecipient(input: {
  event: JobRow;
  base: Pick<JobInsert, 'organizationId' | 'event' | 'mailItemId' | 'parentId'>;
  active: readonly IntegrationRow[];
  item: MailItem;
  appUrl: string;
}): JobInsert[] {
  const { event, base, item } = input;
  const slack = slackIntegrationOf(input.active);
  const channelId = slack?.config.slackSettings?.staffChannelId;
  if (!slack || !channelId) return [];
  const what = [
    itemTypeLabel(item.type),
    item.sender ? `from ${item.sender}` : null,
    item.trackingNumber ? `(${item.trackingNumber})` : null,
  ]
    .filter(Boolean)
    .join(' ');
  const name = slack.config.slackSettings?.staffChannelName;
  return [
    {
      ...base,
      event: STAFF_EVENTS.needsRecipient,
      channel: 'slack',
      integrationId: slack.id,
      destination: name ? `#${name}` : channelId,
      payload: {
        staff: true,
        text: `An item needs a recipient: ${what}. Assign it: ${input.appUrl.replace(/\/+$/, '')}/needs-recipient`,
      },
      dedupeKey: `${event.id}:slack:staff`,
    },
  ];
}
