import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ERASED_RECIPIENT, type EraseRecipientResult, type RecipientPersonalData } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import {
  expectedPackages,
  mailItemHistory,
  notificationJobs,
  organizations,
  photos,
  recipientProxies,
  recipients,
} from '../../db/schema';
import { escapeLike } from '../../lib/like';
import { iso, isoOrNull } from '../../lib/time';
import { historyEntryColumns, selectWithRelations } from '../mail-items/mail-items.repository';
import { scrubItems } from '../mail-items/mail-items.writes';
import { escapeHtml, toGsm } from '../notifications/messages';
import type { RecipientRow } from '../recipients/recipients.repository';

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
const ERASED_VALUES = {
  firstName: ERASED_RECIPIENT.firstName,
  lastName: ERASED_RECIPIENT.lastName,
  email: null,
  phone: null,
  unit: null,
  department: null,
  isActive: false,
  // SCIM's userName is usually the person's address (decision 060).
  scimUserName: null,
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
 * A value as a regular expression: its words literal, the spaces between them any run of
 * whitespace ("Jane  Doe" typed with two spaces is still the name).
 */
const valueRegex = (value: string) => value.trim().split(/\s+/).map(regexLiteral).join('[[:space:]]+');

/** Whole words only: a name inside a longer word ("Li" in "Lighthouse") is not the name. */
const BEFORE_WORD = '(?<![[:alnum:]_])';
const AFTER_WORD = '(?![[:alnum:]_])';
/**
 * In JSON text a word may also follow an escaped newline, tab or return ("…\\nJane Doe"): the
 * `n` before it is the escape's, not the word's.
 */
const BEFORE_WORD_IN_JSON = '(?:(?<![[:alnum:]_])|(?<=\\\\[nrt]))';

/** Case-insensitively distinct values, longest first (the alternation tries the longest first). */
function distinctLongestFirst(values: string[]): string[] {
  const seen = new Set<string>();
  return values
    .map((v) => v.trim())
    .filter((v) => {
      const key = v.toLowerCase();
      if (v.length === 0 || seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => b.length - a.length);
}

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
  const values = distinctLongestFirst([...names, r.email ?? '', r.phone ?? '']);
  if (values.length === 0) return null;
  return `${BEFORE_WORD}(?:${values.map(valueRegex).join('|')})${AFTER_WORD}`;
}

/**
 * What identifies the recipient in text about someone else (amended by issue 24): their full
 * name in either order ("Jane Doe", "Doe Jane", "Doe, Jane"), their email and their phone
 * number. Never a first or last name alone: on another resident's item "Doe" is as likely that
 * resident's family name, and "Jane" any other Jane. A full name needs both parts.
 */
export function mentionValues(r: Pick<RecipientRow, 'firstName' | 'lastName' | 'email' | 'phone'>): string[] {
  const first = r.firstName.trim();
  const last = r.lastName.trim();
  const names = first && last ? [`${first} ${last}`, `${last} ${first}`, `${last}, ${first}`] : [];
  return distinctLongestFirst([...names, r.email ?? '', r.phone ?? '']);
}

/** The ways a value is written in stored messages: as typed, HTML-escaped (emails) and as an SMS writes it. */
const writtenForms = (value: string) => [value, escapeHtml(value), toGsm(value)].filter((v) => v.trim().length >= 2);
/** A string as it stands inside JSON text, once (a payload's field) and twice (a webhook's body). */
const inJson = (value: string) => JSON.stringify(value).slice(1, -1);
const inJsonTwice = (value: string) => inJson(inJson(value));

/** A value's words: every match of its regular expression holds them in this order. */
const wordsOf = (value: string) => value.trim().split(/\s+/);

/**
 * Whether every text holding `a`'s words in order also holds `b`'s (each of b's words inside one
 * of a's, in order; case aside).
 */
function implies(a: string[], b: string[]): boolean {
  let i = 0;
  for (const word of b) {
    while (i < a.length && !a[i]!.toLowerCase().includes(word.toLowerCase())) i += 1;
    if (i === a.length) return false;
    i += 1;
  }
  return true;
}

/**
 * LIKE patterns that every match of the values satisfies, compared in lower case: their words in
 * order, anything between ("%jane%doe%"). A pattern implied by another is left out ("doe, jane"
 * by "doe jane"). A cheap filter before the regular expression, which costs far more a row.
 */
function prefilter(values: string[]): string[] {
  const words = distinctLongestFirst(values).map(wordsOf);
  const kept = words.filter((a, n) => !words.some((b, m) => m !== n && implies(a, b) && (!implies(b, a) || m < n)));
  return kept.map((w) => `%${w.map(escapeLike).join('%')}%`);
}

/** Regular expressions (and their cheap prefilters) for text columns and for JSON (payloads). */
export type MentionPatterns = {
  text: string;
  json: string;
  /** LIKE patterns (compared in lower case) for the text columns and for JSON text. */
  textLike: string[];
  jsonLike: string[];
};

export function mentionPatterns(values: string[]): MentionPatterns | null {
  if (values.length === 0) return null;
  const textValues = distinctLongestFirst(values);
  const jsonValues = distinctLongestFirst(values.flatMap(writtenForms).flatMap((v) => [inJson(v), inJsonTwice(v)]));
  return {
    text: `${BEFORE_WORD}(?:${textValues.map(valueRegex).join('|')})${AFTER_WORD}`,
    json: `${BEFORE_WORD_IN_JSON}(?:${jsonValues.map(valueRegex).join('|')})${AFTER_WORD}`,
    textLike: prefilter(textValues),
    jsonLike: prefilter(jsonValues),
  };
}

/** Another recipient of the organization holding the same full name, email or phone number. */
export type Namesake = Pick<RecipientRow, 'id' | 'firstName' | 'lastName' | 'email' | 'phone'>;

/**
 * How an erasure finds the recipient in rows about other people: `all` on everyone's items,
 * `namesakes` the recipients who share some of the values, whose own items are scrubbed with
 * `onNamesakesItems` (the values nobody else holds) instead, since on their items the shared name or
 * number is as likely theirs. `contacts` clears a message sent outside any recipient (a test
 * message) to their address.
 */
export type Mentions = {
  all: MentionPatterns;
  namesakes: string[];
  onNamesakesItems: MentionPatterns | null;
  contacts: { email: string | null; phone: string | null };
};

export function mentionsOf(
  r: Pick<RecipientRow, 'firstName' | 'lastName' | 'email' | 'phone'>,
  namesakes: Namesake[],
): Mentions | null {
  const values = mentionValues(r);
  const all = mentionPatterns(values);
  if (!all) return null;
  const theirs = new Set(namesakes.flatMap((n) => mentionValues(n).map((v) => v.toLowerCase())));
  return {
    all,
    namesakes: namesakes.map((n) => n.id),
    onNamesakesItems: namesakes.length ? mentionPatterns(values.filter((v) => !theirs.has(v.toLowerCase()))) : all,
    contacts: { email: r.email?.trim() || null, phone: r.phone?.trim() || null },
  };
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

/**
 * `column` (of a row about someone else) with every mention of the erased recipient replaced:
 * the pattern of a namesake's own items on rows whose recipient (`recipientColumn`) is one of
 * them, the full pattern on every other row. JSON columns are scrubbed as JSON text and read back.
 */
function scrubMentions(column: string, recipientColumn: string, m: Mentions, as: 'text' | 'json'): SQL {
  const apply = (p: MentionPatterns | null): SQL => {
    if (!p) return sql.raw(column);
    return as === 'text'
      ? sql`regexp_replace(${sql.raw(column)}, ${p.text}::text, ${ERASED_TEXT}::text, 'gi')`
      : sql`regexp_replace(${sql.raw(column)}::text, ${p.json}::text, ${ERASED_TEXT}::text, 'gi')::jsonb`;
  };
  if (m.namesakes.length === 0) return apply(m.all);
  const ids = sql.join(
    m.namesakes.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return sql`case when ${sql.raw(recipientColumn)} in (${ids}) then ${apply(m.onNamesakesItems)} else ${apply(m.all)} end`;
}

/**
 * Whether `column` (of a row about someone else) mentions the erased recipient: the pattern of a
 * namesake's own rows where `recipientColumn` is one of them, the full pattern elsewhere.
 */
function matchesMentions(column: string, recipientColumn: string, m: Mentions): SQL {
  const test = (p: MentionPatterns | null): SQL => (p ? sql`${sql.raw(column)} ~* ${p.text}::text` : sql`false`);
  if (m.namesakes.length === 0) return test(m.all);
  const ids = sql.join(
    m.namesakes.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return sql`case when ${sql.raw(recipientColumn)} in (${ids}) then ${test(m.onNamesakesItems)} else ${test(m.all)} end`;
}

/**
 * Whether `expression` matches any of the LIKE patterns, case aside: the cheap filter before the
 * regular expression. The text is lower-cased once, rather than by ILIKE for every pattern.
 */
const containsAny = (expression: string, patterns: string[]): SQL =>
  sql`lower(${sql.raw(expression)}) like any (array[${sql.join(
    patterns.map((p) => sql`lower(${p}::text)`),
    sql`, `,
  )}]::text[])`;

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
    // The items in the one shape of an item with its relations (mail-items.columns.ts), then
    // their photos' descriptions (never the bytes).
    const items = await selectWithRelations(
      tx,
      sql`i.organization_id = ${organizationId} and i.recipient_id = ${recipientId}`,
      sql`order by i.arrived_at asc, i.id asc`,
    );
    const photoIds = items.flatMap(({ item }) => (item.photoId ? [item.photoId] : []));
    const itemPhotos = photoIds.length
      ? await tx
          .select({
            id: photos.id,
            contentType: photos.contentType,
            width: photos.width,
            height: photos.height,
            createdAt: photos.createdAt,
          })
          .from(photos)
          .where(and(eq(photos.organizationId, organizationId), inArray(photos.id, photoIds)))
      : [];
    const photoById = new Map(itemPhotos.map((photo) => [photo.id, photo]));
    const history = await tx
      .select(historyEntryColumns)
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
          // Their Slack messages too (decision 064): addressed by their email, like an email.
          inArray(notificationJobs.channel, ['email', 'sms', 'slack']),
        ),
      )
      .orderBy(asc(notificationJobs.createdAt), asc(notificationJobs.id));

    const handedOver = await tx.execute<{
      id: string;
      collector_name: string;
      identified_by: RecipientPersonalData['handovers'][number]['identifiedBy'];
      proxy_reason: string | null;
      created_at: Date | string;
      signed: boolean;
      photographed: boolean;
      item_ids: string[];
    }>(sql`
      select h.id, h.collector_name, h.identified_by, h.proxy_reason, h.created_at,
        h.signature_photo_id is not null as signed, h.photo_id is not null as photographed,
        coalesce(array_agg(i.id order by i.arrived_at, i.id) filter (where i.id is not null), '{}') as item_ids
      from handovers h
      left join mail_items i on i.organization_id = h.organization_id and i.handover_id = h.id
      where h.organization_id = ${organizationId} and h.recipient_id = ${recipientId}
      group by h.id
      order by h.created_at, h.id`);
    const proxies = await tx
      .select({ name: recipientProxies.name, createdAt: recipientProxies.createdAt })
      .from(recipientProxies)
      .where(and(eq(recipientProxies.organizationId, organizationId), eq(recipientProxies.recipientId, recipientId)))
      .orderBy(asc(recipientProxies.createdAt), asc(recipientProxies.name));
    const expected = await tx
      .select({
        id: expectedPackages.id,
        trackingNumber: expectedPackages.trackingNumber,
        carrier: expectedPackages.carrier,
        label: expectedPackages.label,
        createdAt: expectedPackages.createdAt,
        matchedAt: expectedPackages.matchedAt,
      })
      .from(expectedPackages)
      .where(and(eq(expectedPackages.organizationId, organizationId), eq(expectedPackages.recipientId, recipientId)))
      .orderBy(asc(expectedPackages.createdAt), asc(expectedPackages.id));

    return {
      organization: organization ?? { id: organizationId, name: '' },
      mailItems: items.map(({ item: i, location, mailroom }) => {
        const photo = i.photoId ? photoById.get(i.photoId) : undefined;
        return {
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
          location: location.name,
          mailroom: location.mailroomName ?? mailroom?.name ?? null,
          arrivedAt: iso(i.arrivedAt),
          notifiedAt: isoOrNull(i.notifiedAt),
          deliveredAt: isoOrNull(i.deliveredAt),
          createdAt: iso(i.createdAt),
          updatedAt: iso(i.updatedAt),
          photo: photo ? { ...photo, createdAt: iso(photo.createdAt) } : null,
        };
      }),
      history: history.map((h) => ({ ...h, createdAt: iso(h.createdAt) })),
      notifications: messages.map((m) => ({
        ...m,
        channel: m.channel as 'email' | 'sms' | 'slack',
        createdAt: iso(m.createdAt),
        sentAt: isoOrNull(m.sentAt),
      })),
      handovers: handedOver.rows.map((h) => ({
        id: h.id,
        collectorName: h.collector_name,
        identifiedBy: h.identified_by,
        proxyReason: h.proxy_reason,
        createdAt: iso(new Date(h.created_at)),
        signed: h.signed,
        photographed: h.photographed,
        itemIds: h.item_ids,
      })),
      proxies: proxies.map((p) => ({ name: p.name, createdAt: iso(p.createdAt) })),
      expectedPackages: expected.map((e) => ({ ...e, createdAt: iso(e.createdAt), matchedAt: isoOrNull(e.matchedAt) })),
    };
  },

  /**
   * The recipient's items: the collector's name emptied, their name, email and phone replaced in
   * notes, description and sender address, their photos deleted (rows and bytes; a photo another
   * item also shows stays). Answers the items changed and the photos deleted.
   */
  async eraseFromItems(tx: DbOrTx, organizationId: string, recipientId: string, pattern: string | null) {
    // Written through the mail item writer, which announces the items changed to the live desk.
    return scrubItems(tx, organizationId, {
      where: sql`i.recipient_id = ${recipientId}`,
      set: {
        collectorName: sql`null`,
        notes: scrub('i.notes', pattern),
        description: scrub('i.description', pattern),
        senderAddress: scrub('i.sender_address', pattern),
      },
      // a photo another recipient's item (or an item of nobody's) also shows stays
      removePhotos: { keep: sql`x.recipient_id is distinct from ${recipientId}` },
    });
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
          case when j.channel in ('email', 'sms', 'slack') then null else j.destination end as destination,
          case
            when j.channel in ('email', 'sms', 'webhook', 'slack') then
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

  /**
   * The other recipients of the organization holding the same full name, email or phone number
   * (erased ones hold none): their own items keep those values (decision 015, amended).
   */
  async namesakes(tx: DbOrTx, organizationId: string, r: RecipientRow): Promise<Namesake[]> {
    return tx
      .select({
        id: recipients.id,
        firstName: recipients.firstName,
        lastName: recipients.lastName,
        email: recipients.email,
        phone: recipients.phone,
      })
      .from(recipients)
      .where(
        and(
          eq(recipients.organizationId, organizationId),
          sql`${recipients.id} <> ${r.id}`,
          sql`(lower(trim(${recipients.firstName})) = lower(trim(${r.firstName}::text))
                 and lower(trim(${recipients.lastName})) = lower(trim(${r.lastName}::text))
               or lower(trim(${recipients.email})) = lower(trim(${r.email}::text))
               or trim(${recipients.phone}) = trim(${r.phone}::text))`,
        ),
      );
  },

  /**
   * Items addressed to anyone else (or to nobody) that mention them: their full name, email or
   * phone replaced in the collector's name, the sender, notes, description and sender address
   * (a parcel they collected for a neighbour, a note naming them). Only the candidate rows (those
   * holding a value's words in order) are matched against the regular expression. Answers the
   * items changed.
   */
  async eraseMentionsFromItems(tx: DbOrTx, organizationId: string, recipientId: string, m: Mentions) {
    const columns = {
      collectorName: 'collector_name',
      sender: 'sender',
      notes: 'notes',
      description: 'description',
      senderAddress: 'sender_address',
    } as const;
    // The varchar columns keep their length: "[erased]" is longer than a short name.
    const width: Partial<Record<keyof typeof columns, number>> = { collectorName: 255, sender: 255 };
    const set = Object.fromEntries(
      Object.entries(columns).map(([key, c]) => {
        const value = scrubMentions(`i.${c}`, 'i.recipient_id', m, 'text');
        const w = width[key as keyof typeof columns];
        return [key, w ? sql`left(${value}, ${sql.raw(String(w))})` : value];
      }),
    ) as Record<keyof typeof columns, SQL>;
    // Written through the mail item writer, which announces the items changed to the live desk.
    const { items } = await scrubItems(tx, organizationId, {
      where: sql`i.recipient_id is distinct from ${recipientId} and (${sql.join(
        Object.values(columns).map((c) => containsAny(`i.${c}`, m.all.textLike)),
        sql` or `,
      )})`,
      set,
    });
    return items;
  },

  /**
   * History of everyone else's items (deleted ones included) that mentions them: "Collected by
   * Jane Doe" becomes "Collected by [erased]", and so in any other note. Answers the entries changed.
   */
  async eraseMentionsFromHistory(tx: DbOrTx, organizationId: string, recipientId: string, m: Mentions) {
    // The item's recipient decides which pattern applies only when someone shares their values.
    const item = m.namesakes.length
      ? sql`left join mail_items i on i.organization_id = h.organization_id and i.id = h.mail_item_id`
      : sql``;
    const { rows } = await tx.execute<{ n: number }>(sql`
      with old as (
        select h.id, ${scrubMentions('h.notes', 'i.recipient_id', m, 'text')} as notes
        from mail_item_history h ${item}
        where h.organization_id = ${organizationId} and ${containsAny('h.notes', m.all.textLike)}
          and h.mail_item_id not in (${itemIdsOf(organizationId, recipientId)})
      ), changed as (
        update mail_item_history x set notes = o.notes
        from old o
        where x.organization_id = ${organizationId} and x.id = o.id and x.notes is distinct from o.notes
        returning x.id
      )
      select count(*)::int as n from changed`);
    return rows[0]?.n ?? 0;
  },

  /**
   * Messages about anyone else's items that mention them (a receipt telling a neighbour "Collected
   * by Jane Doe", a webhook body or a deleted item's snapshot carrying the collector's name, an
   * error text): the mention replaced in the payload and the error text. Such messages still go
   * out if they were waiting. A message sent outside any recipient (a test) to their address
   * loses the address. Answers the rows changed.
   */
  async eraseMentionsFromNotifications(tx: DbOrTx, organizationId: string, recipientId: string, m: Mentions) {
    const toThem = sql`j.recipient_id is null and j.channel in ('email', 'sms')
      and (lower(j.destination) = lower(${m.contacts.email}::text) or j.destination = ${m.contacts.phone}::text)`;
    const { rows } = await tx.execute<{ n: number }>(sql`
      with old as (
        select j.id,
          ${scrubMentions('j.payload', 'j.recipient_id', m, 'json')} as payload,
          ${scrubMentions('j.last_error', 'j.recipient_id', m, 'text')} as last_error,
          case when ${toThem} then null else j.destination end as destination
        from notification_jobs j
        where j.organization_id = ${organizationId} and j.recipient_id is distinct from ${recipientId}
          and (${containsAny('j.payload::text', m.all.jsonLike)} or ${containsAny('j.last_error', m.all.textLike)}
               or ${toThem})
        for update
      ), changed as (
        update notification_jobs x
        set payload = o.payload, last_error = o.last_error, destination = o.destination, updated_at = now()
        from old o
        where x.organization_id = ${organizationId} and x.id = o.id
          and (x.payload, x.last_error, x.destination) is distinct from (o.payload, o.last_error, o.destination)
        returning x.id
      )
      select count(*)::int as n from changed`);
    return rows[0]?.n ?? 0;
  },

  /**
   * The hand-overs of their items (decision 031): the collector's name becomes "[erased]", the
   * reason goes, and the signature and photo are deleted (rows and bytes). The hand-over itself,
   * its time and how the collector was identified stay: the item was handed over. Answers the
   * hand-overs changed and the pictures deleted.
   */
  async eraseFromHandovers(tx: DbOrTx, organizationId: string, recipientId: string) {
    const { rows } = await tx.execute<{ handovers: number; photos: number }>(sql`
      with old as (
        select h.id, h.signature_photo_id, h.photo_id
        from handovers h
        where h.organization_id = ${organizationId} and h.recipient_id = ${recipientId}
        for update
      ), changed as (
        update handovers x
        set collector_name = ${ERASED_TEXT}, proxy_reason = null, signature_photo_id = null, photo_id = null
        from old o
        where x.organization_id = ${organizationId} and x.id = o.id
          and (x.collector_name <> ${ERASED_TEXT} or x.proxy_reason is not null
               or x.signature_photo_id is not null or x.photo_id is not null)
        returning o.signature_photo_id, o.photo_id
      ), gone as (
        delete from photos p
        where p.organization_id = ${organizationId}
          and p.id in (select c.signature_photo_id from changed c union select c.photo_id from changed c)
        returning p.id
      )
      select (select count(*) from changed)::int as handovers, (select count(*) from gone)::int as photos`);
    return rows[0] ?? { handovers: 0, photos: 0 };
  },

  /**
   * Hand-overs of anyone else's items that name them: a neighbour's parcel they collected (the
   * collector's name) or a reason that mentions them. The neighbour's proof (signature, photo)
   * stays: it is the neighbour's record that the parcel left. Answers the hand-overs changed.
   */
  async eraseMentionsFromHandovers(tx: DbOrTx, organizationId: string, recipientId: string, m: Mentions) {
    const { rows } = await tx.execute<{ n: number }>(sql`
      with old as (
        select h.id,
          left(${scrubMentions('h.collector_name', 'h.recipient_id', m, 'text')}, 255) as collector_name,
          ${scrubMentions('h.proxy_reason', 'h.recipient_id', m, 'text')} as proxy_reason
        from handovers h
        where h.organization_id = ${organizationId} and h.recipient_id is distinct from ${recipientId}
          and (${containsAny('h.collector_name', m.all.textLike)} or ${containsAny('h.proxy_reason', m.all.textLike)})
        for update
      ), changed as (
        update handovers x set collector_name = o.collector_name, proxy_reason = o.proxy_reason
        from old o
        where x.organization_id = ${organizationId} and x.id = o.id
          and (x.collector_name, x.proxy_reason) is distinct from (o.collector_name, o.proxy_reason)
        returning x.id
      )
      select count(*)::int as n from changed`);
    return rows[0]?.n ?? 0;
  },

  /**
   * Other recipients' lists of proxies that name them (issue 41 item 2): an entry holding their
   * full name in either order, their email or their phone number (as on other people's items:
   * never a first or last name alone) is deleted, not scrubbed: "[erased]" on a list would let
   * nobody collect and names no one. On a namesake's own list the shared values stay (their
   * "John Smith" is as likely someone of theirs). Answers the entries deleted.
   */
  async deleteFromOtherProxies(tx: DbOrTx, organizationId: string, recipientId: string, m: Mentions) {
    const { rows } = await tx.execute<{ n: number }>(sql`
      with gone as (
        delete from recipient_proxies p
        where p.organization_id = ${organizationId} and p.recipient_id <> ${recipientId}
          and ${containsAny('p.name', m.all.textLike)}
          and ${matchesMentions('p.name', 'p.recipient_id', m)}
        returning p.id
      )
      select count(*)::int as n from gone`);
    return rows[0]?.n ?? 0;
  },

  /**
   * The answers stored for idempotency keys (decision 044, 049) that hold them, for the 24 hours
   * a key is replayed. Scrubbed, not deleted: a deleted key would let a retried request write
   * again (a second item). A reply about their item (its recipient is them) then answers as the
   * item reads after the erasure: the stand-in recipient with no email, phone, unit or
   * department, no collector, no photo, and their name, email and phone replaced in the notes,
   * description and sender address; any other reply has their full name, email and phone
   * replaced in its JSON text, as a message's payload is. Answers the replies changed.
   */
  async eraseFromIdempotentReplies(
    tx: DbOrTx,
    organizationId: string,
    recipientId: string,
    pattern: string | null,
    m: Mentions | null,
  ) {
    const standIn = JSON.stringify({
      firstName: ERASED_VALUES.firstName,
      lastName: ERASED_VALUES.lastName,
      email: null,
      phone: null,
      unit: null,
      department: null,
    });
    const field = (name: string) => sql`to_jsonb(${scrub(`(k.response->>'${name}')`, pattern)})`;
    const own = sql`k.response || jsonb_build_object(
        'recipient', (k.response->'recipient') || ${standIn}::jsonb,
        'collectorName', null, 'photoUrl', null, 'thumbnailUrl', null,
        'notes', ${field('notes')}, 'description', ${field('description')}, 'senderAddress', ${field('senderAddress')})`;
    const theirs = sql`k.response->'recipient'->>'id' = ${recipientId}::text`;
    const mentioned = m
      ? sql`${scrubMentions('k.response', "nullif(k.response->'recipient'->>'id', '')::uuid", m, 'json')}`
      : sql`k.response`;
    const { rows } = await tx.execute<{ n: number }>(sql`
      with old as (
        select k.caller, k.key, case when ${theirs} then ${own} else ${mentioned} end as response
        from idempotency_keys k
        where k.organization_id = ${organizationId}
          and (${theirs} ${m ? sql`or ${containsAny('k.response::text', m.all.jsonLike)}` : sql``})
        for update
      ), changed as (
        update idempotency_keys x set response = o.response
        from old o
        where x.organization_id = ${organizationId} and x.caller = o.caller and x.key = o.key
          and x.response is distinct from o.response
        returning x.key
      )
      select count(*)::int as n from changed`);
    return rows[0]?.n ?? 0;
  },

  /** Their list of proxies, emptied. Answers the names removed. */
  async deleteProxies(tx: DbOrTx, organizationId: string, recipientId: string): Promise<number> {
    const rows = await tx
      .delete(recipientProxies)
      .where(and(eq(recipientProxies.organizationId, organizationId), eq(recipientProxies.recipientId, recipientId)))
      .returning({ id: recipientProxies.id });
    return rows.length;
  },

  /** The row anonymised and deactivated; undefined when it already was. */
  async eraseRecipient(tx: DbOrTx, organizationId: string, id: string): Promise<RecipientRow | undefined> {
    const [row] = await tx
      .update(recipients)
      // A new pickup code: the one the person held no longer opens anything (decision 031).
      .set({ ...ERASED_VALUES, pickupCode: sql`pickup_code_draw()`, updatedAt: new Date() })
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
