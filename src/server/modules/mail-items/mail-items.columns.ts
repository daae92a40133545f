import { getTableColumns, type Column } from 'drizzle-orm';
import pg from 'pg';
import { jsonObject, rowJson } from '../../db/json-reply';
import type { z } from 'zod';
import { CreateMailItemBody, MailItem, MailItemRecipient, MailItemSummary } from '../../../contract';
import { overdueRowSql } from './overdue';
import {
  mailItemHistory,
  mailItems,
  mailroomLocations,
  mailrooms,
  notificationJobs,
  photos,
  recipients,
} from '../../db/schema';

/**
 * A mail item's columns as the hand-written statements (mail-items.writes.ts) and the reply
 * mapping need them, all taken from the Drizzle schema: a column added to `mail_items` is
 * carried by intake, edit and every reply without touching a column list, or the build fails
 * until someone says what it is (SERVER_COLUMNS below).
 */

export type MailItemRow = typeof mailItems.$inferSelect;
type ItemKey = keyof MailItemRow;

export const ITEM_COLUMNS = getTableColumns(mailItems);
const ITEM_KEYS = Object.keys(ITEM_COLUMNS) as ItemKey[];

/** The fields a clerk fills in: the columns the intake body carries (the contract), in its order. */
export type FieldKey = Extract<keyof z.output<typeof CreateMailItemBody>, ItemKey>;
export const FIELD_KEYS = Object.keys(CreateMailItemBody.shape).filter((k): k is FieldKey => k in ITEM_COLUMNS);
export type ItemFields = Pick<MailItemRow, FieldKey>;

/**
 * Every other column, by who writes it: `key` (identity), `state` (the transition rules of
 * transitions.ts), `photo` (the photo handling), `creator` (the intake's staff member) and
 * `database` (defaults and now()). A new column that is neither a field of the intake body nor
 * listed here does not compile.
 */
const SERVER_COLUMNS = {
  id: 'key',
  organizationId: 'key',
  status: 'state',
  notifiedAt: 'state',
  deliveredAt: 'state',
  handedOverBy: 'state',
  handoverId: 'state',
  heldUntil: 'state',
  // Set by the intake statement itself when the recipient named expects the tracking number, or
  // by the resolution of an item under Needs a recipient to one who does (decisions 033, 047);
  // no other edit changes it.
  expectedPackageId: 'database',
  // 1 by default at intake; the edit statement adds one (decision 044).
  revision: 'database',
  photoId: 'photo',
  createdBy: 'creator',
  arrivedAt: 'database',
  createdAt: 'database',
  updatedAt: 'database',
} as const satisfies Record<Exclude<ItemKey, FieldKey>, 'key' | 'state' | 'photo' | 'creator' | 'database'>;
type Role = (typeof SERVER_COLUMNS)[keyof typeof SERVER_COLUMNS] | 'field';

type StateKey = {
  [K in keyof typeof SERVER_COLUMNS]: (typeof SERVER_COLUMNS)[K] extends 'state' ? K : never;
}[keyof typeof SERVER_COLUMNS];
/** The columns a transition owns: the status and what it brings (times, hand-over). */
export type StateColumns = Pick<MailItemRow, StateKey>;
/** The columns an edit writes: the fields and the state, the whole of each as it should be afterwards. */
export type EditedRow = ItemFields & StateColumns;

export const roleOf = (key: ItemKey): Role =>
  (FIELD_KEYS as readonly string[]).includes(key) ? 'field' : SERVER_COLUMNS[key as keyof typeof SERVER_COLUMNS];
const STATE_KEYS = ITEM_KEYS.filter((k): k is StateKey => roleOf(k) === 'state');
/** Written by every edit: the fields, then the state. */
export const EDITED_KEYS: ReadonlyArray<keyof EditedRow> = [...FIELD_KEYS, ...STATE_KEYS];
/** Written by the intake: every column the database does not fill itself. */
export const INSERTED_KEYS = ITEM_KEYS.filter((k) => roleOf(k) !== 'database');

/** The photo's own content (a processed photo): every photos column but its identity and stamps. */
type PhotoRow = typeof photos.$inferSelect;
type PhotoContentKey = Exclude<keyof PhotoRow, 'id' | 'organizationId' | 'createdBy' | 'createdAt'>;
export const PHOTO_COLUMNS = getTableColumns(photos);
export const PHOTO_CONTENT_KEYS = (Object.keys(PHOTO_COLUMNS) as Array<keyof PhotoRow>).filter(
  (k): k is PhotoContentKey => !['id', 'organizationId', 'createdBy', 'createdAt'].includes(k),
);
export type PhotoContent = Pick<PhotoRow, PhotoContentKey>;

/** A history row as a transition writes it: everything but its identity, order, item and time. */
type HistoryInsert = typeof mailItemHistory.$inferInsert;
type HistoryEntryKey = Exclude<keyof HistoryInsert, 'id' | 'seq' | 'organizationId' | 'mailItemId' | 'createdAt'>;
export type HistoryEntry = { [K in HistoryEntryKey]-?: Exclude<HistoryInsert[K], undefined> };
const HISTORY_COLUMNS = getTableColumns(mailItemHistory);
const HISTORY_ENTRY_KEYS = (Object.keys(HISTORY_COLUMNS) as Array<keyof HistoryInsert>).filter(
  (k): k is HistoryEntryKey => !['id', 'seq', 'organizationId', 'mailItemId', 'createdAt'].includes(k),
);

/** An outbox row: the notification worker fans it out to emails, SMS and webhooks. */
export type OutboxEvent = { event: `mail_item.${string}`; payload: Record<string, unknown> };

// ---------------------------------------------------------------------------------------------
// SQL text

export const ident = (name: string) => pg.escapeIdentifier(name);

/**
 * The type of an array parameter for a column: its SQL type without a length. An explicit cast
 * to varchar(n) would cut a longer value silently; the column itself still refuses it.
 */
const arrayTypeOf = (column: Column) => `${column.getSQLType().replace(/\(\s*\d+(\s*,\s*\d+)?\s*\)/g, '')}[]`;

/** One array parameter of a batched statement: a column of `unnest(...)`. */
export type Input<R> = { name: string; type: string; value: (row: R) => unknown };
export const input = <R>(name: string, type: string, value: (row: R) => unknown): Input<R> => ({ name, type, value });
export const columnInput = <R>(column: Column, value: (row: R) => unknown, name = column.name): Input<R> =>
  input(name, arrayTypeOf(column), value);

/**
 * The parameters of one statement over a batch `B`, numbered in the order the statement's text
 * asks for them: no `$n` is counted by hand.
 */
export function parameters<B>() {
  const groups: Array<{ rows: (batch: B) => unknown[]; values: Array<(row: never) => unknown> }> = [];
  let count = 0;
  return {
    /** `unnest($i::type[], …) [with ordinality] as alias(name, … [, n])` over the rows `rows` picks from the batch. */
    unnest<R>(rows: (batch: B) => R[], inputs: Input<R>[], alias: string, ordinality = false): string {
      const names = inputs.map((i) => i.name);
      const duplicate = names.find((n, i) => names.indexOf(n) !== i);
      if (duplicate) throw new Error(`unnest ${alias}: two inputs named ${duplicate}`);
      groups.push({ rows, values: inputs.map((i) => i.value) });
      const refs = inputs.map((i) => `$${++count}::${i.type}`);
      const columns = [...names.map(ident), ...(ordinality ? ['n'] : [])];
      return `unnest(${refs.join(', ')})${ordinality ? ' with ordinality' : ''} as ${alias}(${columns.join(', ')})`;
    },
    /** The parameters for a batch, one array per input, in the order they are numbered. */
    values: (batch: B): unknown[] =>
      groups.flatMap((g) => {
        const rows = g.rows(batch) as never[];
        return g.values.map((value) => rows.map(value));
      }),
  };
}

/** Column names of mail_items by key, for the statements' logic. */
export const col = Object.fromEntries(ITEM_KEYS.map((k) => [k, ident(ITEM_COLUMNS[k].name)])) as Record<
  ItemKey,
  string
>;

/**
 * History rows and outbox events, written for the rows of the statement's `item` CTE (the rows it
 * inserted, updated or deleted, with their organization and recipient): the one writer of both,
 * for intake, edits, the worker's auto-notify and deletes. Rows of an item the statement did not
 * write are dropped with it. `B` is the statement's batch, `changes` picks its history rows and
 * events, each tagged with its item's id.
 */
export function historyAndEvents<B>(
  params: ReturnType<typeof parameters<B>>,
  changes: (batch: B) => Array<{ itemId: string; history: HistoryEntry[]; events: OutboxEvent[] }>,
  /** SQL over `item` and `h` replacing a history column's value, for what only the statement knows. */
  overrides: Partial<Record<HistoryEntryKey, string>> = {},
): string {
  type Tagged<T> = { itemId: string; row: T };
  const historyRows = (batch: B) =>
    changes(batch).flatMap((c) => c.history.map((row): Tagged<HistoryEntry> => ({ itemId: c.itemId, row })));
  const eventRows = (batch: B) =>
    changes(batch).flatMap((c) => c.events.map((row): Tagged<OutboxEvent> => ({ itemId: c.itemId, row })));
  const entryNames = HISTORY_ENTRY_KEYS.map((k) => ident(HISTORY_COLUMNS[k].name));
  const h = HISTORY_COLUMNS;
  const j = getTableColumns(notificationJobs);
  const historyUnnest = params.unnest(
    historyRows,
    [
      input<Tagged<HistoryEntry>>('item_id', 'uuid[]', (r) => r.itemId),
      ...HISTORY_ENTRY_KEYS.map((k) => columnInput<Tagged<HistoryEntry>>(HISTORY_COLUMNS[k], (r) => r.row[k])),
    ],
    'h',
    true,
  );
  const eventUnnest = params.unnest(
    eventRows,
    [
      input<Tagged<OutboxEvent>>('item_id', 'uuid[]', (r) => r.itemId),
      columnInput<Tagged<OutboxEvent>>(j.event, (r) => r.row.event),
      input<Tagged<OutboxEvent>>('payload', 'text[]', (r) => JSON.stringify(r.row.payload)),
    ],
    'e',
    true,
  );
  return `
  history as (
    insert into mail_item_history (${ident(h.organizationId.name)}, ${ident(h.mailItemId.name)}, ${entryNames.join(', ')})
    select item.${col.organizationId}, h.item_id, ${HISTORY_ENTRY_KEYS.map((k, i) => overrides[k] ?? `h.${entryNames[i]}`).join(', ')}
    from ${historyUnnest} join item on item.${col.id} = h.item_id
    order by h.n
  ),
  events as (
    insert into notification_jobs (${[j.organizationId, j.channel, j.event, j.mailItemId, j.recipientId, j.payload]
      .map((c) => ident(c.name))
      .join(', ')})
    select item.${col.organizationId}, 'event', e.${ident(j.event.name)}, e.item_id, item.${col.recipientId}, e.payload::jsonb
    from ${eventUnnest} join item on item.${col.id} = e.item_id
    order by e.n
  )`;
}

// ---------------------------------------------------------------------------------------------
// Rows: an item with its relations, selected flat and read back

/** The relations a reply carries, each column under its own alias (`recipient.firstName`…). */
const recipientColumns = getTableColumns(recipients);
const RELATIONS = {
  recipient: Object.fromEntries(
    Object.keys(MailItemRecipient.shape).map((k): [string, [string, Column]] => [
      k,
      ['r', recipientColumns[k as keyof typeof recipientColumns]],
    ]),
  ) as Record<keyof z.infer<typeof MailItemRecipient>, [string, Column]>,
  location: {
    id: ['l', mailroomLocations.id],
    name: ['l', mailroomLocations.name],
    mailroomName: ['lm', mailrooms.name],
  },
  mailroom: { id: ['m', mailrooms.id], name: ['m', mailrooms.name] },
} satisfies Record<string, Record<string, [string, Column]>>;

/** Every column of the item `i`, under its key. */
export const ITEM_SELECT = ITEM_KEYS.map((k) => `i.${col[k]} as ${ident(k)}`).join(', ');

/** The item `i` and its relations (joined as in ITEM_JOINS), flat. */
export const ITEM_WITH_RELATIONS_SELECT = [
  ITEM_SELECT,
  ...Object.entries(RELATIONS).flatMap(([group, columns]) =>
    Object.entries(columns).map(
      ([key, [alias, column]]) => `${alias}.${ident(column.name)} as ${ident(`${group}.${key}`)}`,
    ),
  ),
].join(', ');

/**
 * The relations of the item `i`. Every one also matches organization_id, so a foreign row can
 * never be attached. Each is looked up by its key for each item (a lateral sub-select with
 * `limit 1`, which the planner cannot turn into a join of whole tables): the plan is the same
 * whatever an organization's size or the planner's estimates, so a prepared list statement can
 * keep one generic plan for every organization (db/prepared.ts, decision 025).
 */
export const ITEM_JOINS = `
  left join lateral (select * from recipients r
                     where r.organization_id = i.organization_id and r.id = i.recipient_id limit 1) r on true
  left join lateral (select * from mailroom_locations l
                     where l.organization_id = i.organization_id and l.id = i.location_id limit 1) l on true
  left join lateral (select * from mailrooms lm where lm.id = l.mailroom_id limit 1) lm on true
  left join lateral (select * from mailrooms m
                     where m.organization_id = i.organization_id and m.id = i.mailroom_id limit 1) m on true`;

const ITEM_ENTRIES = ITEM_KEYS.map((k) => [k, ITEM_COLUMNS[k]] as const);

/** The item of a row selected with ITEM_SELECT, values as the schema maps them (timestamps as Dates). */
export function itemFromRow(row: Record<string, unknown>): MailItemRow {
  const item: Record<string, unknown> = {};
  for (const [key, column] of ITEM_ENTRIES) {
    const value = row[key];
    item[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return item as MailItemRow;
}

function groupFromRow(row: Record<string, unknown>, group: keyof typeof RELATIONS) {
  const out: Record<string, unknown> = {};
  for (const [key, [, column]] of Object.entries(RELATIONS[group])) {
    const value = row[`${group}.${key}`];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out;
}

/**
 * An item with its relations: THE shape of "a mail item with its recipient, location and
 * mailroom" on the server. Every statement that reads one selects ITEM_WITH_RELATIONS_SELECT over
 * ITEM_JOINS and reads it back with itemWithRelationsFromRow: the writes' answers, the single
 * read, the notification worker's and the personal-data export. The recipient and mailroom are
 * null when the item has none; the location's values are null then (the reply drops it).
 */
export type MailItemWithRelations = {
  item: MailItemRow;
  recipient: z.infer<typeof MailItemRecipient> | null;
  location: { id: string | null; name: string | null; mailroomName: string | null };
  mailroom: { id: string; name: string } | null;
};

/** A row selected with ITEM_WITH_RELATIONS_SELECT (over ITEM_JOINS) as an item with its relations. */
export function itemWithRelationsFromRow(row: Record<string, unknown>): MailItemWithRelations {
  // The values are the columns' own (mapFromDriverValue), so the groups are what the type says.
  const recipient = groupFromRow(row, 'recipient');
  const mailroom = groupFromRow(row, 'mailroom');
  return {
    item: itemFromRow(row),
    recipient: recipient.id ? (recipient as MailItemWithRelations['recipient']) : null,
    location: groupFromRow(row, 'location') as MailItemWithRelations['location'],
    mailroom: mailroom.id ? (mailroom as MailItemWithRelations['mailroom']) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The reply

type Json<T> = T extends Date ? string : T extends Date | null ? string | null : T;
/** The reply's values of the row's columns: every column but the photo's id, timestamps as ISO text. */
type ColumnsOfReply = { [K in Exclude<ItemKey, 'photoId'>]: Json<MailItemRow[K]> };
type DerivedKey = Exclude<keyof MailItem, keyof ColumnsOfReply>;
// Every column (but photoId) is a key of the reply with the same value, in ISO text for times:
// a column added to the schema and not to the contract (or the other way round) fails here.
type Check<T extends true> = T;
type _ReplyCarriesEveryColumn = Check<ColumnsOfReply extends Pick<MailItem, keyof ColumnsOfReply> ? true : false>;

/** The reply's keys, in the contract's order, each a column of the row (converted) or derived. */
const REPLY_KEYS = Object.keys(MailItem.shape) as Array<keyof MailItem>;

/** How each key of the reply is made: derived, a column as it is, or a timestamp column as ISO text. */
const REPLY_PLAN = REPLY_KEYS.map((key) => {
  const column = (ITEM_COLUMNS as Record<string, Column | undefined>)[key];
  const how = !column ? 'derived' : column.dataType === 'date' ? 'time' : 'column';
  return [key, how] as const;
});

/**
 * A reply built from the row's columns and the values that are not plain columns (`derived`), in
 * the contract's key order. `derived` must name every other key of the reply. Compiled once from
 * the plan into one object literal (keys are the contract's, quoted as JSON): a page of replies
 * is built as fast as from a hand-written mapper, which the list's CPU budget needs.
 */
export const replyOf = new Function(
  'row',
  'derived',
  `return { ${REPLY_PLAN.map(([key, how]) => {
    const k = JSON.stringify(key);
    if (how === 'derived') return `${k}: derived[${k}]`;
    if (how === 'column') return `${k}: row[${k}]`;
    return `${k}: row[${k}] ? row[${k}].toISOString() : null`;
  }).join(', ')} };`,
) as (row: MailItemRow, derived: Record<DerivedKey, unknown>) => MailItem;

// ---------------------------------------------------------------------------------------------
// The reply, built by PostgreSQL (lists)

/** The relation's keys (all, or those of `keys`) as JSON entries. */
const relationJson = (group: keyof typeof RELATIONS, keys?: readonly string[]) =>
  Object.entries(RELATIONS[group])
    .filter(([key]) => !keys || keys.includes(key))
    .map(([key, [alias, column]]): [string, string] => [key, `${alias}.${ident(column.name)}`]);

/**
 * The values of the reply that are not columns, in SQL: what toMailItemDto (mail-items.service.ts)
 * derives in JavaScript, for the lists; the list test compares the two on every branch.
 */
const DERIVED_SQL: Record<DerivedKey, string> = {
  photoUrl: `case when i.${col.photoId} is null then null else '/api/photos/' || i.${col.photoId} end`,
  thumbnailUrl: `case when i.${col.photoId} is null then null else '/api/photos/' || i.${col.photoId} || '/thumbnail' end`,
  isOverdue: overdueRowSql({
    status: `i.${col.status}`,
    arrivedAt: `i.${col.arrivedAt}`,
    heldUntil: `i.${col.heldUntil}`,
  }),
  recipient: `case when r.id is null then null else ${jsonObject(relationJson('recipient'))} end`,
  location: `case when l.id is null then null else ${jsonObject(
    relationJson('location').map(([key, value]): [string, string] => [
      key,
      key === 'mailroomName' ? `coalesce(${value}, '')` : value,
    ]),
  )} end`,
  mailroom: `case when m.id is null then null else ${jsonObject(relationJson('mailroom'))} end`,
};

/** The reply of the item `i` with its relations (joined as in ITEM_JOINS) as one json value, in the contract's key order. */
export const ITEM_REPLY_JSON = rowJson(mailItems, 'i', REPLY_KEYS, DERIVED_SQL);

const SUMMARY_RECIPIENT_KEYS = Object.keys(MailItemSummary.shape.recipient.unwrap().shape);

/**
 * The list row of the item `i` (view=summary, MailItemSummary) as one json value: the same values
 * as the full reply for the keys a row carries, the recipient cut to who they are.
 */
export const ITEM_SUMMARY_JSON = rowJson(mailItems, 'i', Object.keys(MailItemSummary.shape), {
  ...DERIVED_SQL,
  recipient: `case when r.id is null then null else ${jsonObject(relationJson('recipient', SUMMARY_RECIPIENT_KEYS))} end`,
});
