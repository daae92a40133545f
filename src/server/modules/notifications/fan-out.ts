import { and, eq, inArray, ne, sql, TransactionRollbackError } from 'drizzle-orm';
import {
  IDENTIFIED_BY_LABELS,
  WEBHOOK_EVENTS,
  formatPickupCode,
  type MailItem,
  type NotifyChannel,
} from '../../../contract';
import { recipientLanguage } from '../../../contract/languages';
import type { Db, DbOrTx } from '../../db/client';
import {
  handovers,
  integrations,
  mailItems,
  notificationJobs,
  organizations,
  recipients,
  type IntegrationConfig,
} from '../../db/schema';
import { mailItemsRepository } from '../mail-items/mail-items.repository';
import { toMailItemDto } from '../mail-items/mail-items.service';
import { settingsRepository } from '../settings/settings.repository';
import { renderEmail, renderSms, type MessageContext, type MessageKind } from './messages';
import type { JobInsert, JobRow } from './queue.repository';
import { recipientChannels } from './recipient-channels';
import { teamsFanOut } from './teams-fan-out';
import { slackRecipientJobs, slackStaffNeedsRecipient } from './slack-fan-out';

export type FanOutContext = {
  db: Db;
  /** Whether email can go out without an organization integration (SMTP_URL is set). */
  platformEmail: boolean;
  unsubscribeUrl: (recipientId: string) => string;
  /** The recipient's page link with PORTAL_TOKEN_PLACEHOLDER for its token (decision 032). */
  portalUrl?: () => string;
  /** The app's base URL (PUBLIC_URL): the links of Teams cards. */
  appUrl?: () => string;
};

export type IntegrationRow = typeof integrations.$inferSelect;

export const SKIP_REASONS = {
  noRecipient: 'The item has no recipient',
  optedOut: 'The recipient has unsubscribed from notifications',
  noEmail: 'The recipient has no email address',
  noPhone: 'The recipient has no phone number',
  noContact: 'The recipient has no email address or phone number',
  noEmailServer: 'No email server is configured (add an email integration)',
  itemGone: 'The item was deleted before the message went out',
  handedOver: 'The item was already handed over',
  inHandoverReceipt: 'Listed in the one receipt of its hand-over, sent with another of its items',
  alreadySent: 'The recipient was already sent the arrival message for this item',
  prefersSms: 'The recipient chose not to be notified by email',
  prefersEmail: 'The recipient chose not to be notified by SMS',
} as const;

/**
 * The items one hand-over took, first by id: the receipt goes out once per hand-over, with the
 * first item's event, listing them all (decision 053); the other items' events send none.
 */
async function handoverItems(db: DbOrTx, organizationId: string, handoverId: string) {
  return db
    .select({
      id: mailItems.id,
      type: mailItems.type,
      sender: mailItems.sender,
      trackingNumber: mailItems.trackingNumber,
    })
    .from(mailItems)
    .where(and(eq(mailItems.organizationId, organizationId), eq(mailItems.handoverId, handoverId)))
    .orderBy(mailItems.id);
}

/** Which message the recipient gets for an event, if any. */
function recipientMessage(event: JobRow, autoNotify: boolean): MessageKind | null {
  switch (event.event) {
    case 'mail_item.created':
      return autoNotify ? 'arrival' : null;
    case 'mail_item.notified':
      return event.payload.source === 'auto' ? null : 'arrival';
    case 'mail_item.delivered':
      return 'receipt';
    case 'mail_item.reminder':
      return 'reminder';
    default:
      return null;
  }
}

const webhookWants = (config: IntegrationConfig, event: string) =>
  (WEBHOOK_EVENTS as readonly string[]).includes(event) &&
  (!config.webhookEvents || config.webhookEvents.includes(event));

export const hasSmsAccount = (i: IntegrationRow) =>
  !!(i.config.smsSettings?.accountSid && i.config.smsSettings.authToken && i.config.smsSettings.fromNumber);

const isArrival = (row: JobInsert) =>
  (row.channel === 'email' || row.channel === 'sms') && row.status !== 'skipped' && row.payload?.kind === 'arrival';

/** The channels an arrival message of the item already went out (or is going out) on, from another event. */
async function arrivalChannels(db: DbOrTx, organizationId: string, mailItemId: string, eventId: string) {
  const rows = await db
    .select({ channel: notificationJobs.channel })
    .from(notificationJobs)
    .where(
      and(
        eq(notificationJobs.organizationId, organizationId),
        eq(notificationJobs.mailItemId, mailItemId),
        inArray(notificationJobs.channel, ['email', 'sms']),
        inArray(notificationJobs.status, ['queued', 'sending', 'sent']),
        sql`${notificationJobs.payload}->>'kind' = 'arrival'`,
        ne(notificationJobs.parentId, eventId),
      ),
    );
  return new Set(rows.map((r) => r.channel));
}

/**
 * Turns one event job into its message jobs, in one transaction that inserts them and marks the
 * event done. Every message row has a dedupe key `${eventId}:${channel}:${integration|recipient}`,
 * so running the same event again (a worker died after the commit was sent but before it learnt
 * of it, or a lease ran out) inserts nothing twice. Answers false when the event was no longer
 * this worker's to finish (its lease ran out and another worker took it).
 */
export async function fanOut(ctx: FanOutContext, event: JobRow): Promise<boolean> {
  const { db } = ctx;
  // Events are always an organization's (only the platform's own messages have none, decision 054).
  const organizationId = event.organizationId!;
  const itemRow = event.mailItemId
    ? await mailItemsRepository.findWithRelations(db, organizationId, event.mailItemId)
    : undefined;
  const item: MailItem | undefined = itemRow
    ? toMailItemDto(itemRow)
    : event.event === 'mail_item.deleted'
      ? (event.payload.item as MailItem | undefined)
      : undefined;
  const settings = await settingsRepository.get(db, organizationId);
  const [organization] = await db
    .select({ name: organizations.name, logoUrl: organizations.logoUrl, timezone: organizations.timezone })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const active = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.organizationId, organizationId), eq(integrations.isActive, true)))
    .orderBy(integrations.createdAt);

  const rows: JobInsert[] = [];
  const base = {
    organizationId,
    event: event.event,
    mailItemId: event.mailItemId,
    parentId: event.id,
  };

  // Webhooks: every active webhook integration subscribed to the event.
  if (organization) {
    for (const integration of active) {
      if (integration.type !== 'webhook' || !integration.config.webhookUrl) continue;
      if (!webhookWants(integration.config, event.event)) continue;
      const dedupeKey = `${event.id}:webhook:${integration.id}`;
      if (!item) {
        rows.push({
          ...base,
          channel: 'webhook',
          integrationId: integration.id,
          destination: integration.config.webhookUrl,
          status: 'skipped',
          skipReason: SKIP_REASONS.itemGone,
          dedupeKey,
        });
        continue;
      }
      rows.push({
        ...base,
        channel: 'webhook',
        recipientId: item.recipientId,
        integrationId: integration.id,
        destination: integration.config.webhookUrl,
        payload: {
          body: JSON.stringify({
            type: event.event,
            timestamp: event.createdAt.toISOString(),
            data: { mailItem: item },
          }),
        },
        dedupeKey,
      });
    }
  }

  const kind = recipientMessage(event, settings.autoNotifyRecipients);
  if (kind && organization) {
    const recipientId = itemRow ? itemRow.item.recipientId : event.recipientId;
    const skip = (channel: 'email' | 'sms', reason: string, destination: string | null = null) =>
      rows.push({
        ...base,
        channel,
        recipientId,
        destination,
        status: 'skipped',
        skipReason: reason,
        dedupeKey: `${event.id}:${channel}:${recipientId ?? 'none'}`,
      });
    const [recipient] = recipientId
      ? await db
          .select()
          .from(recipients)
          .where(and(eq(recipients.organizationId, organizationId), eq(recipients.id, recipientId)))
      : [];
    const waiting = itemRow && (itemRow.item.status === 'pending' || itemRow.item.status === 'notified');
    const together =
      kind === 'receipt' && itemRow?.item.handoverId
        ? await handoverItems(db, organizationId, itemRow.item.handoverId)
        : [];
    if (!itemRow) {
      skip('email', SKIP_REASONS.itemGone);
    } else if (together.length > 1 && together[0]!.id !== itemRow.item.id) {
      skip('email', SKIP_REASONS.inHandoverReceipt);
    } else if (kind !== 'receipt' && !waiting) {
      // A reminder for an item collected meanwhile is simply not due; an arrival says why it was not sent.
      if (kind === 'arrival') skip('email', SKIP_REASONS.handedOver);
    } else if (!recipient) {
      skip('email', SKIP_REASONS.noRecipient);
    } else if (recipient.notificationsOptOutAt) {
      skip('email', SKIP_REASONS.optedOut, recipient.email);
    } else {
      const i = itemRow.item;
      const location = itemRow.location?.name
        ? `${itemRow.location.name}${itemRow.location.mailroomName ? `, ${itemRow.location.mailroomName}` : ''}`
        : (itemRow.mailroom?.name ?? null);
      // The receipt carries the hand-over's proof (decision 031).
      const [handover] =
        kind === 'receipt' && i.handoverId
          ? await db
              .select()
              .from(handovers)
              .where(and(eq(handovers.organizationId, organizationId), eq(handovers.id, i.handoverId)))
          : [];
      const context: MessageContext = {
        organization,
        recipient: { ...recipient, pickupCode: formatPickupCode(recipient.pickupCode) },
        // The recipient's language, else the organization's default (decision 066).
        language: recipientLanguage(recipient, settings.defaultLanguage),
        item: {
          type: i.type,
          sender: i.sender,
          courierCompany: i.courierCompany,
          trackingNumber: i.trackingNumber,
          location,
          arrivedAt: i.arrivedAt,
          deliveredAt: i.deliveredAt,
          collectorName: i.collectorName,
          hasPhoto: !!i.photoId,
          expected: !!i.expectedPackageId,
          handover: handover
            ? {
                identified: IDENTIFIED_BY_LABELS[handover.identifiedBy],
                signed: Boolean(handover.signaturePhotoId),
                photographed: Boolean(handover.photoId),
              }
            : null,
        },
        receiptItems: together.length > 1 ? together : undefined,
        pickupInstructions: settings.pickupInstructions ?? null,
        unsubscribeUrl: ctx.unsubscribeUrl(recipient.id),
        portalUrl: kind !== 'receipt' && ctx.portalUrl ? ctx.portalUrl() : null,
      };
      const emailIntegration = active.find((x) => x.type === 'email' && x.config.emailSettings?.smtpHost);
      const smsIntegration = active.find((x) => x.type === 'sms' && hasSmsAccount(x));
      const canEmail = !!emailIntegration || ctx.platformEmail;
      // The recipient's choice on their page (decisions 032, 065), honoured among the channels
      // that reach them; a choice none of which reaches them any more falls back to those that do.
      const channels = recipientChannels(recipient, active, ctx.platformEmail);
      const refused = (c: NotifyChannel) => channels.offered.includes(c) && !channels.chosen.has(c);
      const emailRefused = refused('email');
      const smsRefused = refused('sms');
      // A Slack DM beside them (decision 064), unless the recipient chose not to be told there.
      if (!refused('slack'))
        rows.push(...(await slackRecipientJobs(db, { event, base, kind, recipient, context, active })));

      if (!recipient.email && !(smsIntegration && recipient.phone)) {
        skip('email', smsIntegration ? SKIP_REASONS.noContact : SKIP_REASONS.noEmail);
      } else {
        if (recipient.email && emailRefused) {
          skip('email', SKIP_REASONS.prefersSms, recipient.email);
        } else if (recipient.email) {
          if (!canEmail) {
            skip('email', SKIP_REASONS.noEmailServer, recipient.email);
          } else {
            const rendered = renderEmail(kind, context);
            rows.push({
              ...base,
              channel: 'email',
              recipientId,
              integrationId: emailIntegration?.id ?? null,
              destination: recipient.email,
              payload: {
                kind,
                ...rendered,
                unsubscribeUrl: context.unsubscribeUrl,
                fromName: organization.name,
                photoId: kind === 'arrival' ? i.photoId : null,
                // Drawn by the worker as images: the code's QR, the collector's signature.
                pickupCode: kind === 'receipt' ? null : context.recipient.pickupCode,
                // The worker mints the page link's token as it sends (never stored in the clear).
                portalLink: !!context.portalUrl,
                signaturePhotoId: handover?.signaturePhotoId ?? null,
              },
              dedupeKey: `${event.id}:email:${recipientId}`,
            });
          }
        }
        // An SMS as well when the organization has an SMS integration and the recipient a phone.
        if (smsIntegration && smsRefused && recipient.phone) {
          rows.push({
            ...base,
            channel: 'sms',
            recipientId,
            destination: recipient.phone,
            status: 'skipped',
            skipReason: SKIP_REASONS.prefersEmail,
            dedupeKey: `${event.id}:sms:${recipientId}`,
          });
        } else if (smsIntegration) {
          if (recipient.phone) {
            rows.push({
              ...base,
              channel: 'sms',
              recipientId,
              integrationId: smsIntegration.id,
              destination: recipient.phone,
              payload: { kind, body: renderSms(kind, context) },
              dedupeKey: `${event.id}:sms:${recipientId}`,
            });
          }
        }
      }
    }
  }

  rows.push(...(await teamsFanOut({ ctx, event, base, active, itemRow, organization, kind })));
  // An item that waits for a recipient is told to the Slack staff channel too (decision 064).
  if (event.event === 'mail_item.needs_recipient' && item)
    rows.push(...slackStaffNeedsRecipient({ event, base, active, item, appUrl: ctx.appUrl?.() ?? '' }));

  return db
    .transaction(async (tx) => {
      if (event.mailItemId && rows.some(isArrival)) {
        // Two events of one item fanned out at once (Mark Notified clicked before the intake's
        // arrival went out) must not both send it: one at a time per item, and the second sees
        // the first's messages (a fresh snapshot after the lock) and skips them.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${event.mailItemId}, 7))`);
        const sent = await arrivalChannels(tx, organizationId, event.mailItemId, event.id);
        for (const [n, row] of rows.entries()) {
          if (isArrival(row) && sent.has(row.channel)) {
            rows[n] = { ...row, payload: {}, status: 'skipped', skipReason: SKIP_REASONS.alreadySent };
          }
        }
      }
      if (rows.length)
        await tx.insert(notificationJobs).values(rows).onConflictDoNothing({ target: notificationJobs.dedupeKey });
      const done = await tx
        .update(notificationJobs)
        .set({ status: 'done', lockedUntil: null, sentAt: new Date(), updatedAt: new Date() })
        .where(
          and(
            eq(notificationJobs.id, event.id),
            eq(notificationJobs.status, 'sending'),
            eq(notificationJobs.attempts, event.attempts),
          ),
        )
        .returning({ id: notificationJobs.id });
      // Not ours any more: whoever holds it now fans it out (the dedupe keys keep that single).
      if (done.length === 0) tx.rollback();
      return true;
    })
    .catch((err: unknown) => {
      if (err instanceof TransactionRollbackError) return false;
      throw err;
    });
}
