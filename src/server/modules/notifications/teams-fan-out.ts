import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailroomLocations, recipients, type IntegrationConfig } from '../../db/schema';
import type { MailItemWithRelations } from '../mail-items/mail-items.repository';
import { teamsMessage } from './channels/teams';
import type { JobInsert, JobRow } from './queue.repository';
import { recipientChannels } from './recipient-channels';
import { arrivalCard, needsRecipientCard, type TeamsItemFacts } from './teams-card';

/** The staff event of an item logged without a recipient (decision 041): only Teams hears of it today. */
export const NEEDS_RECIPIENT_EVENT = 'mail_item.needs_recipient';

export const TEAMS_SKIP_REASONS = {
  optedOut: 'The recipient has unsubscribed from notifications: not announced in Teams',
  notChosen: 'The recipient chose not to be announced in Teams',
} as const;

type Integration = { id: string; name: string; type: string; config: IntegrationConfig };

export type TeamsFanOutInput = {
  ctx: { db: Db; platformEmail: boolean; appUrl?: () => string };
  event: JobRow;
  /** The columns every message row of the event shares. */
  base: Pick<JobInsert, 'organizationId' | 'event' | 'mailItemId' | 'parentId'>;
  active: readonly Integration[];
  itemRow: MailItemWithRelations | undefined;
  organization: { name: string; timezone: string } | undefined;
  /** The message the recipient gets for the event (fan-out's recipientMessage), if any. */
  kind: string | null;
};

/** The mailroom an item is in: its own, else its shelf's. */
async function mailroomOf(db: Db, row: MailItemWithRelations): Promise<string | null> {
  if (row.item.mailroomId) return row.item.mailroomId;
  if (!row.item.locationId) return null;
  const [location] = await db
    .select({ mailroomId: mailroomLocations.mailroomId })
    .from(mailroomLocations)
    .where(
      and(eq(mailroomLocations.organizationId, row.item.organizationId), eq(mailroomLocations.id, row.item.locationId)),
    );
  return location?.mailroomId ?? null;
}

/**
 * The Teams posts of one event (decision 065): to every active Teams channel whose mailroom is the
 * item's (or that covers every mailroom), an Adaptive Card for an arrival (when the recipient's
 * arrival message is due, and they have not turned Teams off on their page) or for an item that
 * needs a recipient. One row per channel, deduplicated like every message of the outbox.
 */
export async function teamsFanOut(input: TeamsFanOutInput): Promise<JobInsert[]> {
  const { ctx, event, base, itemRow, organization } = input;
  const channels = input.active.filter((i) => String(i.type) === 'teams' && i.config.teamsSettings?.webhookUrl);
  if (!channels.length || !itemRow || !organization) return [];
  const item = itemRow.item;
  const isArrival = input.kind === 'arrival' && (item.status === 'pending' || item.status === 'notified');
  const isNeedsRecipient = event.event === NEEDS_RECIPIENT_EVENT && item.status === 'needs_recipient';
  if (!isArrival && !isNeedsRecipient) return [];

  const mailroomId = await mailroomOf(ctx.db, itemRow);
  const covering = channels.filter(
    (i) => !i.config.teamsSettings?.mailroomId || i.config.teamsSettings.mailroomId === mailroomId,
  );
  if (!covering.length) return [];

  const appUrl = ctx.appUrl?.() ?? '';
  const facts: TeamsItemFacts = {
    type: item.type,
    sender: item.sender,
    courierCompany: item.courierCompany,
    trackingNumber: item.trackingNumber,
    location: itemRow.location?.name
      ? `${itemRow.location.name}${itemRow.location.mailroomName ? `, ${itemRow.location.mailroomName}` : ''}`
      : (itemRow.mailroom?.name ?? null),
    arrivedAt: item.arrivedAt,
  };
  const rowsFor = (make: (integration: Integration) => Partial<JobInsert>) =>
    covering.map((integration): JobInsert => ({
      ...base,
      channel: 'teams',
      recipientId: item.recipientId,
      integrationId: integration.id,
      // The URL carries the flow's signature: the log names the channel, never the URL.
      destination: integration.name,
      dedupeKey: `${event.id}:teams:${integration.id}`,
      ...make(integration),
    }));

  if (isNeedsRecipient) {
    const card = needsRecipientCard({ organization, item: facts, url: `${appUrl}/needs-recipient` });
    return rowsFor(() => ({ payload: { kind: 'needs_recipient', body: JSON.stringify(teamsMessage(card)) } }));
  }

  const [recipient] = item.recipientId
    ? await ctx.db
        .select()
        .from(recipients)
        .where(and(eq(recipients.organizationId, item.organizationId), eq(recipients.id, item.recipientId)))
    : [];
  if (!recipient) return [];
  if (recipient.notificationsOptOutAt) {
    return rowsFor(() => ({ status: 'skipped', skipReason: TEAMS_SKIP_REASONS.optedOut }));
  }
  if (!recipientChannels(recipient, input.active, ctx.platformEmail).chosen.has('teams')) {
    return rowsFor(() => ({ status: 'skipped', skipReason: TEAMS_SKIP_REASONS.notChosen }));
  }
  const card = arrivalCard({
    organization,
    recipient,
    item: facts,
    url: `${appUrl}/pending-pickups?item=${item.id}`,
  });
  return rowsFor(() => ({ payload: { kind: 'arrival', body: JSON.stringify(teamsMessage(card)) } }));
}
