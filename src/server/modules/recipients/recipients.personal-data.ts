import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ERASED_RECIPIENT, type EraseRecipientResult, type RecipientPersonalData } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import {
  mailItemHistory,
  mailItems,
  mailroomLocations,
  mailrooms,
  notificationJobs,
  organizations,
  photos,
  recipients,
} from '../../db/schema';
import { iso, isoOrNull } from '../../lib/time';
import type { RecipientRow } from './recipients.repository';

/**
 * A recipient's personal data on request (decision 015): everything the organization holds about
 * one recipient, and its erasure. Every statement names the organization, as everywhere else.
 */

/** What stands in free text for a name, email or phone number that was erased. */
export const ERASED_TEXT = '[erased]';
/** The skip reason of a message that was still waiting to go out when its recipient was erased. */
export const ERASURE_SKIP_REASON = "Cancelled: the recipient's personal data was erased";

export type ErasureCounts = EraseRecipientResult['counts'];

/** The recipient row as an erasure leaves it: the name stands in, every other personal field empty. */
export const ERASED_VALUES = {
  firstName: ERASED_RECIPIENT.firstName,
  lastName: ERASED_RECIPIENT.lastName,
  email: null,
  phone: null,
  unit: null,
  department: null,
  isActive: false,
} as const;

/** Whether the row already looks as an erasure leaves it (a second erasure then has nothing to look for). */
export function isErased(r: RecipientRow): boolean {
  return (
    r.firstName === ERASED_VALUES.firstName &&
    r.lastName === ERASED_VALUES.lastName &&
    r.email === null &&
    r.phone === null &&
    r.unit === null &&
    r.department === null &&
    !r.isActive
  );
}

/** A literal for a PostgreSQL regular expression (ARE): every non-alphanumeric character escaped. */
const regexLiteral = (value: string) => value.replace(/[^\p{L}\p{N}\s]/gu, (c) => `\\${c}`);

/**
 * One regular expression matching, as whole words and case-insensitively, the recipient's full
 * name, last name, first name, email and phone number (longest first). Names shorter than two
 * characters are left out: an initial alone identifies nobody and would match too much. Null
 * when there is nothing to look for.
 */
export function erasurePattern(r: Pick<RecipientRow, 'firstName' | 'lastName' | 'email' | 'phone'>): string | null {
  const names = [`${r.firstName} ${r.lastName}`, r.lastName, r.firstName]
    .map((v) => v.trim())
    .filter((v) => v.length >= 2);
  const contacts = [r.email, r.phone].map((v) => v?.trim() ?? '').filter((v) => v.length > 0);
  const seen = new Set<string>();
  const values = [...names, ...contacts].filter((v) => {
    const key = v.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (values.length === 0) return null;
  values.sort((a, b) => b.length - a.length);
  // Lookbehind and lookahead: a name inside a longer word ("Li" in "Lighthouse") is not the name.
  return `(?<![[:alnum:]_])(?:${values.map(regexLiteral).join('|')})(?![[:alnum:]_])`;
}

/** `column` with every match of the pattern replaced (no change without a pattern). */
const scrub = (column: string, pattern: string | null): SQL =>
  pattern ? sql`regexp_replace(${sql.raw(column)}, ${pattern}::text, ${ERASED_TEXT}::text, 'gi')` : sql.raw(column);

/**
 * The ids of the recipient's items: those addressed to them now, and deleted ones whose messages
 * were about them (history outlives its item, and so do the messages).
 */
const itemIdsOf = (organizationId: string, recipientId: string) => sql`
  select i.id from mail_items i where i.organization_id = ${organizationId} and i.recipient_id = ${recipientId}
  union
  select j.mail_item_id from notification_jobs j
  where j.organization_id = ${organizationId} and j.recipient_id = ${recipientId} and j.mail_item_id is not null
    and not exists (select 1 from mail_items g where g.organization_id = j.organization_id and g.id = j.mail_item_id)`;

const locationMailroom = alias(mailrooms, 'location_mailroom');

export const personalDataRepository = {
  /** The recipient locked for the rest of the transaction: an edit or a second erasure waits. */
  async lockRecipient(tx: DbOrTx, organizationId: string, id: string): Promise<RecipientRow | undefined> {
    const [row] = await tx
      .select()
      .from(recipients)
      .where(and(eq(recipients.organizationId, organizationId), eq(recipients.id, id)))
      .for('update');
    return row;
  },

  /** Everything the export holds besides the recipient row. */
  async collect(
    tx: DbOrTx,
    organizationId: string,
    recipientId: string,
  ): Promise<Omit<RecipientPersonalData, 'format' | 'exportedAt' | 'recipient'>> {
    const [organization] = await tx
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    const items = await tx
      .select({
        item: mailItems,
        location: mailroomLocations.name,
        locationMailroom: locationMailroom.name,
        mailroom: mailrooms.name,
        photo: {
          id: photos.id,
          contentType: photos.contentType,
          width: photos.width,
          height: photos.height,
          createdAt: photos.createdAt,
        },
      })
      .from(mailItems)
      .leftJoin(
        mailroomLocations,
        and(
          eq(mailroomLocations.organizationId, mailItems.organizationId),
          eq(mailroomLocations.id, mailItems.locationId),
        ),
      )
      .leftJoin(locationMailroom, eq(locationMailroom.id, mailroomLocations.mailroomId))
      .leftJoin(
        mailrooms,
        and(eq(mailrooms.organizationId, mailItems.organizationId), eq(mailrooms.id, mailItems.mailroomId)),
      )
      .leftJoin(photos, and(eq(photos.organizationId, mailItems.organizationId), eq(photos.id, mailItems.photoId)))
      .where(and(eq(mailItems.organizationId, organizationId), eq(mailItems.recipientId, recipientId)))
      .orderBy(asc(mailItems.arrivedAt), asc(mailItems.id));
    const history = await tx
      .select({
        id: mailItemHistory.id,
        mailItemId: mailItemHistory.mailItemId,
        action: mailItemHistory.action,
        previousStatus: mailItemHistory.previousStatus,
        newStatus: mailItemHistory.newStatus,
        notes: mailItemHistory.notes,
        createdAt: mailItemHistory.createdAt,
      })
      .from(mailItemHistory)
      .where(
        and(
          eq(mailItemHistory.organizationId, organizationId),
          sql`${mailItemHistory.mailItemId} in (${itemIdsOf(organizationId, recipientId)})`,
        ),
      )
      .orderBy(asc(mailItemHistory.createdAt), asc(mailItemHistory.seq));
    const messages = await tx
      .select({
        id: notificationJobs.id,
        mailItemId: notificationJobs.mailItemId,
        channel: notificationJobs.channel,
        event: notificationJobs.event,
        kind: sql<string | null>`${notificationJobs.payload}->>'kind'`,
        address: notificationJobs.destination,
        status: notificationJobs.status,
        attempts: notificationJobs.attempts,
        skipReason: notificationJobs.skipReason,
        createdAt: notificationJobs.createdAt,
        sentAt: notificationJobs.sentAt,
      })
      .from(notificationJobs)
      .where(
        and(
          eq(notificationJobs.organizationId, organizationId),
          eq(notificationJobs.recipientId, recipientId),
          inArray(notificationJobs.channel, ['email', 'sms']),
        ),
      )
      .orderBy(asc(notificationJobs.createdAt), asc(notificationJobs.id));

    return {
      organization: organization ?? { id: organizationId, name: '' },
      mailItems: items.map(({ item: i, location, locationMailroom: inRoom, mailroom, photo }) => ({
        id: i.id,
        type: i.type,
        status: i.status,
        trackingNumber: i.trackingNumber,
        sender: i.sender,
        senderAddress: i.senderAddress,
        courierCompany: i.courierCompany,
        description: i.description,
        size: i.size,
        weight: i.weight,
        notes: i.notes,
        collectorName: i.collectorName,
        location,
        mailroom: inRoom ?? mailroom,
        arrivedAt: iso(i.arrivedAt),
        notifiedAt: isoOrNull(i.notifiedAt),
        deliveredAt: isoOrNull(i.deliveredAt),
        createdAt: iso(i.createdAt),
        updatedAt: iso(i.updatedAt),
        photo: photo?.id ? { ...photo, createdAt: iso(photo.createdAt) } : null,
      })),
      history: history.map((h) => ({ ...h, createdAt: iso(h.createdAt) })),
      notifications: messages.map((m) => ({
        ...m,
        channel: m.channel as 'email' | 'sms',
        createdAt: iso(m.createdAt),
        sentAt: isoOrNull(m.sentAt),
      })),
    };
  },

  /**
   * The recipient's items: the collector's name emptied, their name, email and phone replaced in
   * notes, description and sender address, their photos deleted (rows and bytes; a photo another
   * item also shows stays). Answers the items changed and the photos deleted.
   */
  async eraseFromItems(tx: DbOrTx, organizationId: string, recipientId: string, pattern: string | null) {
    const { rows } = await tx.execute<{ items: number; photos: number }>(sql`
      with old as (
        select i.id, i.photo_id,
          ${scrub('i.notes', pattern)} as notes,
          ${scrub('i.description', pattern)} as description,
          ${scrub('i.sender_address', pattern)} as sender_address
        from mail_items i
        where i.organization_id = ${organizationId} and i.recipient_id = ${recipientId}
        for update
      ), changed as (
        update mail_items m
        set collector_name = null, photo_id = null, notes = o.notes, description = o.description,
            sender_address = o.sender_address, updated_at = now()
        from old o
        where m.organization_id = ${organizationId} and m.id = o.id
          and (m.collector_name is not null or m.photo_id is not null or m.notes is distinct from o.notes
               or m.description is distinct from o.description or m.sender_address is distinct from o.sender_address)
        returning m.id, o.photo_id
      ), gone as (
        delete from photos p
        where p.organization_id = ${organizationId}
          and p.id in (select c.photo_id from changed c where c.photo_id is not null)
          and not exists (
            select 1 from mail_items x
            where x.organization_id = p.organization_id and x.photo_id = p.id
              and x.recipient_id is distinct from ${recipientId})
        returning p.id
      )
      select (select count(*) from changed)::int as items, (select count(*) from gone)::int as photos`);
    return rows[0] ?? { items: 0, photos: 0 };
  },

  /**
   * History of their items (deleted ones included): "Collected by …" loses the name, and their
   * name, email and phone are replaced anywhere else in the notes. The rows, their actions,
   * statuses and times stay. Answers the entries changed.
   */
  async eraseFromHistory(tx: DbOrTx, organizationId: string, recipientId: string, pattern: string | null) {
    const notes = sql`case when h.notes like 'Collected by %' then ${`Collected by ${ERASED_TEXT}`}::text
                           else ${scrub('h.notes', pattern)} end`;
    const { rows } = await tx.execute<{ n: number }>(sql`
      with changed as (
        update mail_item_history h set notes = ${notes}
        where h.organization_id = ${organizationId}
          and h.mail_item_id in (${itemIdsOf(organizationId, recipientId)})
          and h.notes is not null and h.notes is distinct from ${notes}
        returning h.id
      )
      select count(*)::int as n from changed`);
    return rows[0]?.n ?? 0;
  },

  /**
   * Every message about them: messages still waiting (queued, or being sent) are cancelled
   * (skipped, with the reason); emails and texts lose their address and rendered message (the
   * kind stays, so an arrival is still not sent twice); webhook deliveries lose their body; a
   * deleted item's event loses its snapshot; error texts lose their name, email and phone.
   * Answers the rows changed and, of those, the cancelled ones.
   */
  async eraseFromNotifications(tx: DbOrTx, organizationId: string, recipientId: string, pattern: string | null) {
    const { rows } = await tx.execute<{ changed: number; cancelled: number }>(sql`
      with old as (
        select j.id, j.status in ('queued', 'sending') as cancel,
          case when j.status in ('queued', 'sending') then 'skipped' else j.status end as status,
          case when j.status in ('queued', 'sending') then ${ERASURE_SKIP_REASON}::text else j.skip_reason end
            as skip_reason,
          case when j.channel in ('email', 'sms') then null else j.destination end as destination,
          case
            when j.channel in ('email', 'sms', 'webhook') then
              case when j.payload->'kind' is not null
                then jsonb_build_object('kind', j.payload->'kind', 'erased', true)
                else '{"erased": true}'::jsonb end
            else j.payload - 'item'
          end as payload,
          ${scrub('j.last_error', pattern)} as last_error
        from notification_jobs j
        where j.organization_id = ${organizationId} and j.recipient_id = ${recipientId}
        for update
      ), changed as (
        update notification_jobs n
        set status = o.status, skip_reason = o.skip_reason, destination = o.destination, payload = o.payload,
            last_error = o.last_error, locked_until = case when o.cancel then null else n.locked_until end,
            updated_at = now()
        from old o
        where n.organization_id = ${organizationId} and n.id = o.id
          and (n.status, n.skip_reason, n.destination, n.payload, n.last_error)
              is distinct from (o.status, o.skip_reason, o.destination, o.payload, o.last_error)
        returning o.cancel
      )
      select count(*)::int as changed, (count(*) filter (where cancel))::int as cancelled from changed`);
    return rows[0] ?? { changed: 0, cancelled: 0 };
  },

  /** The row anonymised and deactivated; undefined when it already was. */
  async eraseRecipient(tx: DbOrTx, organizationId: string, id: string): Promise<RecipientRow | undefined> {
    const [row] = await tx
      .update(recipients)
      .set({ ...ERASED_VALUES, updatedAt: new Date() })
      .where(
        and(
          eq(recipients.organizationId, organizationId),
          eq(recipients.id, id),
          sql`(${recipients.firstName}, ${recipients.lastName}, ${recipients.email}, ${recipients.phone},
               ${recipients.unit}, ${recipients.department}, ${recipients.isActive})
              is distinct from (${ERASED_VALUES.firstName}::varchar, ${ERASED_VALUES.lastName}::varchar,
               null::varchar, null::varchar, null::varchar, null::varchar, false)`,
        ),
      )
      .returning();
    return row;
  },
};
