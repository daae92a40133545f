import { and, asc, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  CORE_STATUSES,
  HANDED_OVER_STATUSES,
  WAITING_STATUSES,
  LONGEST_HOLD_DAYS_DEFAULT,
  MAX_HOLD_DAYS,
  NEEDS_RECIPIENT,
  type IdentifiedBy,
  type NeedsRecipientItem,
} from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { mailItemCountsRepository } from './mail-item-counts.repository';
import { overdueCountSql } from './overdue';
import { isPreparedPageSize, pageClause, queryPage, queryShape } from '../../db/prepared';
import {
  ITEM_JOINS,
  ITEM_REPLY_JSON,
  ITEM_SUMMARY_JSON,
  ITEM_WITH_RELATIONS_SELECT,
  itemWithRelationsFromRow,
  type MailItemWithRelations,
} from './mail-items.columns';
import { jsonArray } from '../../db/json-reply';
import { handovers, mailItemHistory, mailItems, recipients, users } from '../../db/schema';

export type { MailItemWithRelations } from './mail-items.columns';

export type MailItemFilters = {
  statuses?: string[];
  type?: string;
  recipientId?: string;
  locationId?: string;
  dateFrom?: Date;
  dateTo?: Date;
  search?: string;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
};

/** The Needs a recipient list's page size: a prepared one (db/prepared.ts). */
export const NEEDS_RECIPIENT_PAGE = 50;

type NeedsRecipientRow = {
  id: string;
  tracking_number: string | null;
  courier_company: string | null;
  type: string;
  sender: string | null;
  arrived_at: string | Date;
  photo_id: string | null;
  location_id: string | null;
  location_name: string | null;
  location_mailroom_name: string | null;
  logger_id: string | null;
  logger_first_name: string | null;
  logger_last_name: string | null;
  logger_email: string | null;
};

/** `%` and `_` in a search term are text, not wildcards. */
const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Items with their relations (the one shape: MailItemWithRelations, mail-items.columns.ts) for
 * which `where` holds of the item `i`, in the order `orderBy` (of `i`) gives.
 */
export async function selectWithRelations(
  db: DbOrTx,
  where: SQL,
  orderBy: SQL = sql``,
): Promise<MailItemWithRelations[]> {
  const { rows } = await db.execute<Record<string, unknown>>(
    sql`select ${sql.raw(ITEM_WITH_RELATIONS_SELECT)} from mail_items i ${sql.raw(ITEM_JOINS)} where ${where} ${orderBy}`,
  );
  return rows.map(itemWithRelationsFromRow);
}

/**
 * The lifecycle's statuses. A filter made of these alone is written into the statement's text
 * rather than sent as parameters, so that a prepared statement's generic plan knows which
 * statuses it reads (pending items are a few of an organization's many; a plan for "some
 * status" scanned them all). Organizations' own statuses stay parameters.
 */
const LIFECYCLE_STATUSES: ReadonlySet<string> = new Set([...CORE_STATUSES, ...HANDED_OVER_STATUSES]);
const inLifecycle = (statuses: readonly string[] | undefined) =>
  (statuses ?? []).every((status) => LIFECYCLE_STATUSES.has(status));

function statusCondition(statuses: string[]): SQL {
  if (!inLifecycle(statuses)) return inArray(mailItems.status, statuses);
  return sql`${mailItems.status} in (${sql.raw(statuses.map((status) => `'${status}'`).join(', '))})`;
}

/** Whether a filter narrows the set by more than the status (a search, a type, a recipient, ...). */
function narrowsBeyondStatus(f: MailItemSetFilters | MailItemFilters): boolean {
  // Whatever else narrows the set (any filter, including one added later) counts.
  const { statuses: _statuses, order: _order, limit: _limit, offset: _offset, ...narrowing } = f as MailItemFilters;
  return Object.values(narrowing).some((v) => v !== undefined);
}

/** The organization is a value, or a placeholder in a statement built once per shape (queryShape). */
type OrganizationId = string | SQLWrapper;

function filterConditions(organizationId: OrganizationId, f: Omit<MailItemFilters, 'order' | 'limit' | 'offset'>): SQL {
  const conditions: SQL[] = [eq(mailItems.organizationId, organizationId)];
  if (f.statuses?.length) conditions.push(statusCondition(f.statuses));
  if (f.type) conditions.push(eq(mailItems.type, f.type));
  if (f.recipientId) conditions.push(eq(mailItems.recipientId, f.recipientId));
  if (f.locationId) conditions.push(eq(mailItems.locationId, f.locationId));
  if (f.dateFrom) conditions.push(gte(mailItems.arrivedAt, f.dateFrom));
  if (f.dateTo) conditions.push(lte(mailItems.arrivedAt, f.dateTo));
  if (f.search) {
    const term = likeTerm(f.search);
    conditions.push(
      or(
        ilike(mailItems.trackingNumber, term),
        ilike(mailItems.sender, term),
        ilike(mailItems.collectorName, term),
        // The outer columns spelled out with their table: in a one-table select (the count) Drizzle
        // renders them bare, and a bare organization_id here would be the recipient's own.
        sql`exists (select 1 from ${recipients} r where r.organization_id = "mail_items"."organization_id"
                    and r.id = "mail_items"."recipient_id"
                    and (r.first_name || ' ' || r.last_name) ilike ${term})`,
      )!,
    );
  }
  return and(...conditions)!;
}

/** The filters of a whole result set (no order or page). */
export type MailItemSetFilters = Omit<MailItemFilters, 'order' | 'limit' | 'offset'>;

/**
 * The statement counting the items that match. A filter by status alone (or none: Mail Intake,
 * Pending Pickups) is answered from the kept counts, not by counting the organization's items
 * (decision 021).
 */
function countQuery(db: DbOrTx, organizationId: OrganizationId, f: MailItemSetFilters | MailItemFilters) {
  if (!narrowsBeyondStatus(f)) return mailItemCountsRepository.totalQuery(db, organizationId, f.statuses);
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(mailItems)
    .where(filterConditions(organizationId, f));
}

/** A history entry as its replies show it (the timeline, a recipient's personal data): who did it aside. */
export const historyEntryColumns = {
  id: mailItemHistory.id,
  mailItemId: mailItemHistory.mailItemId,
  action: mailItemHistory.action,
  previousStatus: mailItemHistory.previousStatus,
  newStatus: mailItemHistory.newStatus,
  notes: mailItemHistory.notes,
  createdAt: mailItemHistory.createdAt,
};

/**
 * A recipient's waiting items (pending or notified), oldest first, at most `limit`, as Pending
 * Pickups' rows in one JSON array (the hand-over by pickup code, decision 031): read from
 * mail_items_recipient_waiting_idx alone. `recipientId` may be a value, a placeholder or a subquery.
 */
export function waitingForRecipientJson(
  db: DbOrTx,
  organizationId: OrganizationId,
  recipientId: string | SQLWrapper,
  limit: number,
): SQL {
  const waiting = db
    .select()
    .from(mailItems)
    .where(
      and(
        eq(mailItems.organizationId, organizationId),
        eq(mailItems.recipientId, recipientId),
        statusCondition([...WAITING_STATUSES]),
      ),
    )
    .orderBy(asc(mailItems.arrivedAt), asc(mailItems.id))
    .limit(limit);
  return sql`(select ${sql.raw(jsonArray(ITEM_SUMMARY_JSON, 'i.arrived_at asc, i.id asc'))}
              from (${waiting}) i ${sql.raw(ITEM_JOINS)})`;
}

/**
 * The last day (YYYY-MM-DD, the organization's calendar) the recipient may hold the item until
 * (decisions 035, 052): MAX_HOLD_DAYS from today, and no later than the organization's longest hold
 * counted from the day the item was first held (its first 'held' history row; today when it never
 * was). Only the recipient's own item's history counts: for anyone else's the answer is the same
 * as for an item never held, so it tells nothing about it. Before today once the longest hold is
 * used up. SQL over the three values (columns of the outer statement, or parameters).
 */
export const holdLatestSql = (
  organizationId: SQLWrapper | string,
  itemId: SQLWrapper | string,
  recipientId: SQLWrapper | string,
) => sql`(
  select to_char(least(d.today + ${MAX_HOLD_DAYS}::int,
                       coalesce(f.first, d.today) + coalesce(s.longest_hold_days, ${LONGEST_HOLD_DAYS_DEFAULT}::int)),
                 'YYYY-MM-DD')
  from organizations o
  left join organization_settings s on s.organization_id = o.id
  cross join lateral (select (now() at time zone o.timezone)::date as today) d
  cross join lateral (
    select (min(h.created_at) at time zone o.timezone)::date as first
    from mail_item_history h
    where h.organization_id = o.id and h.mail_item_id = ${itemId} and h.action = 'held'
      and exists (select 1 from mail_items mi where mi.organization_id = o.id and mi.id = ${itemId}
                  and mi.recipient_id = ${recipientId})
  ) f
  where o.id = ${organizationId})`;

export const mailItemsRepository = {
  /**
   * A hold's dates in the organization's calendar (decision 035): its today, the moment a hold
   * until `date` ends (the midnight after it, in the organization's timezone, daylight saving
   * included), the last day this item may be held until (holdLatestSql) and the organization's
   * longest hold. Undefined when the organization is gone.
   */
  async holdCalendar(
    db: DbOrTx,
    organizationId: string,
    date: string,
    item: { id: string; recipientId: string },
  ): Promise<{ today: string; ends: Date; latest: string; longestHoldDays: number } | undefined> {
    const result = await db.execute<{ today: string; ends: Date; latest: string; longest: number }>(sql`
      select to_char((now() at time zone o.timezone)::date, 'YYYY-MM-DD') as today,
             ((${date}::date + 1)::timestamp at time zone o.timezone) as ends,
             ${holdLatestSql(organizationId, item.id, item.recipientId)} as latest,
             coalesce((select s.longest_hold_days from organization_settings s where s.organization_id = o.id),
                      ${LONGEST_HOLD_DAYS_DEFAULT}::int) as longest
      from organizations o where o.id = ${organizationId}`);
    const row = result.rows[0];
    return (
      row && { today: row.today, ends: new Date(row.ends), latest: row.latest, longestHoldDays: Number(row.longest) }
    );
  },

  /**
   * A page of items as its JSON reply, built by PostgreSQL (ITEM_REPLY_JSON: the same values as
   * toMailItemDto; or the list rows, ITEM_SUMMARY_JSON), and the total of the filter, in one
   * statement. The page is picked from mail_items alone, then joined to its relations, so no plan
   * joins the organization's items before cutting them to the page; and the one index that
   * starts with the organization is in the page's order, so even a plan without statistics reads
   * the page rather than sorting the organization's items (decision 026).
   */
  async page(
    db: DbOrTx,
    organizationId: string,
    filters: MailItemFilters,
    view: 'full' | 'summary' = 'full',
  ): Promise<{ json: string; total: number }> {
    // statuses are a set: in one order and without repeats, one statement per combination
    const f = { ...filters, statuses: filters.statuses && [...new Set(filters.statuses)].sort() };
    const order = f.order === 'asc' ? asc : desc;
    const direction = f.order === 'asc' ? 'asc' : 'desc';
    const statement = (organization: OrganizationId, offset: number | SQLWrapper) => {
      const sorted = db
        .select()
        .from(mailItems)
        .where(filterConditions(organization, f))
        .orderBy(order(mailItems.arrivedAt), order(mailItems.id));
      return sql`
      select ${sql.raw(jsonArray(view === 'summary' ? ITEM_SUMMARY_JSON : ITEM_REPLY_JSON, `i.arrived_at ${direction}, i.id ${direction}`))} as body,
             (${countQuery(db, organization, f)}) as total
      from (${sorted}${pageClause({ limit: f.limit, offset })}) i ${sql.raw(ITEM_JOINS)}`;
    };
    // The desk's own lists (no filter, or lifecycle statuses only) keep a prepared statement each,
    // built once; a search or another filter is planned for its values every time, as its
    // selectivity varies.
    const prepare = !narrowsBeyondStatus(f) && inLifecycle(f.statuses) && isPreparedPageSize(f.limit);
    const [row] = await queryPage<{ body: string; total: number }>(
      db,
      prepare ? ['mail-items.page', view, direction, f.limit, ...(f.statuses ?? [])].join(' ') : undefined,
      { organizationId, offset: f.offset },
      statement,
    );
    return { json: row!.body, total: row!.total };
  },

  /** How many items match (the total of `page`). */
  async count(db: DbOrTx, organizationId: string, f: MailItemSetFilters): Promise<number> {
    const [row] = await countQuery(db, organizationId, f);
    return row?.n ?? 0;
  },

  async findWithRelations(db: DbOrTx, organizationId: string, id: string): Promise<MailItemWithRelations | undefined> {
    const [row] = await selectWithRelations(db, sql`i.organization_id = ${organizationId} and i.id = ${id}`);
    return row;
  },

  /** The Pending Pickups counters in one statement: the waiting items from the kept counts, the overdue ones from the waiting index (less those on hold). */
  async pendingSummary(db: DbOrTx, organizationId: string) {
    const [row] = await queryShape<
      { totalPending: number; overdue: number; notified: number },
      { organizationId: string }
    >(db, 'mail-items.pending-summary', { organizationId }, (v) => {
      const counted = (statuses: string[]) => mailItemCountsRepository.totalQuery(db, v.organizationId, statuses);
      return sql`
        select (${counted([...WAITING_STATUSES])}) as "totalPending",
               ${overdueCountSql(v.organizationId)} as overdue,
               (${counted(['notified'])}) as notified`;
    });
    return row!;
  },

  /** Items in one status, from the kept counts (migration 0018): the Needs a recipient badge. */
  statusTotal: (db: DbOrTx, organizationId: string, status: string) =>
    mailItemCountsRepository.total(db, organizationId, [status]),

  /**
   * A page of the items waiting for a recipient (decision 041), newest first, with who logged
   * them and where they are kept: read in its order from mail_items_org_needs_recipient_idx, as one
   * prepared statement for every organization (decision 025). Photos as URLs, never bytes.
   */
  async needsRecipientPage(
    db: DbOrTx,
    organizationId: string,
    offset: number,
  ): Promise<Array<Omit<NeedsRecipientItem, 'expectedBy'>>> {
    const rows = await queryPage<NeedsRecipientRow>(
      db,
      'mail-items.needs-recipient',
      { organizationId, offset },
      (organization, at) => sql`
        select i.id, i.tracking_number, i.courier_company, i.type, i.sender, i.arrived_at, i.photo_id,
               l.id as location_id, l.name as location_name, lm.name as location_mailroom_name,
               u.id as logger_id, u.first_name as logger_first_name, u.last_name as logger_last_name, u.email as logger_email
        from (select * from ${mailItems}
              where ${mailItems.organizationId} = ${organization} and ${mailItems.status} = ${sql.raw(`'${NEEDS_RECIPIENT}'`)}
              order by ${mailItems.arrivedAt} desc, ${mailItems.id} desc
              ${pageClause({ limit: NEEDS_RECIPIENT_PAGE, offset: at })}) i
        left join mailroom_locations l on l.organization_id = i.organization_id and l.id = i.location_id
        left join mailrooms lm on lm.id = l.mailroom_id
        left join users u on u.id = i.created_by
        order by i.arrived_at desc, i.id desc`,
    );
    return rows.map((r) => ({
      id: r.id,
      trackingNumber: r.tracking_number,
      courierCompany: r.courier_company,
      type: r.type,
      sender: r.sender,
      arrivedAt: new Date(r.arrived_at).toISOString(),
      photoUrl: r.photo_id ? `/api/photos/${r.photo_id}` : null,
      thumbnailUrl: r.photo_id ? `/api/photos/${r.photo_id}/thumbnail` : null,
      location: r.location_id
        ? { id: r.location_id, name: r.location_name ?? '', mailroomName: r.location_mailroom_name ?? '' }
        : null,
      loggedBy: r.logger_id
        ? { id: r.logger_id, firstName: r.logger_first_name, lastName: r.logger_last_name, email: r.logger_email ?? '' }
        : null,
    }));
  },

  /**
   * A page of the item's history, oldest first, and how many rows it has; the rows outlive their
   * item. Both read mail_item_history_org_item_idx (organization, item, seq): the page is the
   * index's order from `offset`, the count an index-only range.
   */
  async history(db: DbOrTx, organizationId: string, mailItemId: string, limit: number, offset: number) {
    const ofItem = and(eq(mailItemHistory.organizationId, organizationId), eq(mailItemHistory.mailItemId, mailItemId));
    const [rows, [total]] = await Promise.all([
      db
        .select({
          ...historyEntryColumns,
          performer: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
        })
        .from(mailItemHistory)
        .leftJoin(users, eq(users.id, mailItemHistory.performedBy))
        .where(ofItem)
        .orderBy(asc(mailItemHistory.seq))
        .limit(limit)
        .offset(offset),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(mailItemHistory)
        .where(ofItem),
    ]);
    return { rows, total: total?.n ?? 0 };
  },
};

/** Totals over a whole filter in one statement: pending means not yet handed over (pending or notified). */
export async function mailItemFilterStats(
  db: DbOrTx,
  organizationId: string,
  f: MailItemSetFilters,
): Promise<{ total: number; delivered: number; pending: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      delivered: sql<number>`(count(*) filter (where ${mailItems.status} = 'delivered'))::int`,
      pending: sql<number>`(count(*) filter (where ${mailItems.status} in ('pending', 'notified')))::int`,
    })
    .from(mailItems)
    .where(filterConditions(organizationId, f));
  return row ?? { total: 0, delivered: 0, pending: 0 };
}

/** Where a keyset batch resumes: `arrivedAt` is Postgres text, keeping the microseconds a Date would drop. */
export type MailItemKeyset = { arrivedAt: string; id: string };

export type MailItemExportRow = {
  keyset: MailItemKeyset;
  /** Arrival and delivery as 'YYYY-MM-DD HH:mm' in the given timezone. */
  arrived: string;
  delivered: string | null;
  type: string;
  recipientFirstName: string | null;
  recipientLastName: string | null;
  sender: string | null;
  trackingNumber: string | null;
  status: string;
  /** Who collected it and the proof of the hand-over, when it was handed over with one (decision 031). */
  collectorName: string | null;
  identifiedBy: IdentifiedBy | null;
  signed: boolean;
  photographed: boolean;
};

/**
 * One batch of an export, newest first (arrived_at desc, id desc), strictly after `after`.
 * Keyset pagination: each batch costs the same however deep into the range it is.
 */
export async function mailItemExportBatch(
  db: DbOrTx,
  organizationId: string,
  f: MailItemSetFilters,
  timezone: string,
  after: MailItemKeyset | undefined,
  limit: number,
): Promise<MailItemExportRow[]> {
  const conditions = filterConditions(organizationId, f);
  const where = after
    ? and(
        conditions,
        sql`(${mailItems.arrivedAt}, ${mailItems.id}) < (${after.arrivedAt}::timestamptz, ${after.id}::uuid)`,
      )
    : conditions;
  const rows = await db
    .select({
      arrivedAtText: sql<string>`${mailItems.arrivedAt}::text`,
      id: mailItems.id,
      arrived: sql<string>`to_char(${mailItems.arrivedAt} at time zone ${timezone}, 'YYYY-MM-DD HH24:MI')`,
      delivered: sql<string | null>`to_char(${mailItems.deliveredAt} at time zone ${timezone}, 'YYYY-MM-DD HH24:MI')`,
      type: mailItems.type,
      recipientFirstName: recipients.firstName,
      recipientLastName: recipients.lastName,
      sender: mailItems.sender,
      trackingNumber: mailItems.trackingNumber,
      status: mailItems.status,
      collectorName: mailItems.collectorName,
      identifiedBy: handovers.identifiedBy,
      signed: sql<boolean>`${handovers.signaturePhotoId} is not null`,
      photographed: sql<boolean>`${handovers.photoId} is not null`,
    })
    .from(mailItems)
    .leftJoin(
      recipients,
      and(eq(recipients.organizationId, mailItems.organizationId), eq(recipients.id, mailItems.recipientId)),
    )
    .leftJoin(
      handovers,
      and(eq(handovers.organizationId, mailItems.organizationId), eq(handovers.id, mailItems.handoverId)),
    )
    .where(where)
    .orderBy(desc(mailItems.arrivedAt), desc(mailItems.id))
    .limit(limit);
  return rows.map(({ arrivedAtText, id, ...r }) => ({ keyset: { arrivedAt: arrivedAtText, id }, ...r }));
}
