import crypto from 'node:crypto';
import { sql, type SQLChunk } from 'drizzle-orm';
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { EXPECTED_PACKAGE_DAYS, PACKAGE_LIMIT_MESSAGE, trackingKey } from '../../../contract';
import { withPgTransaction, type DbOrTx } from '../../db/client';
import { withTenants } from '../../db/tenant-scope';
import { createBatcher } from '../../lib/batcher';
import { mailItemChanges, publishLiveChanges } from '../../lib/live-events';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { violatedForeignKey, violatedUniqueConstraint } from '../../lib/pg-errors';
import { writeBlockError } from '../billing/access';
import type { ProcessedPhoto } from '../photos/photo-processing';
import {
  IDEMPOTENCY_CONSTRAINT,
  idempotencyRepository,
  replayOf,
  type Answered,
  type IdempotencyClaim,
  type StoredAnswer,
} from './idempotency';
import { checkPackageAllowance } from './usage.repository';
import {
  EDITED_KEYS,
  INSERTED_KEYS,
  ITEM_COLUMNS,
  ITEM_JOINS,
  ITEM_SELECT,
  ITEM_WITH_RELATIONS_SELECT,
  PHOTO_COLUMNS,
  PHOTO_CONTENT_KEYS,
  col,
  columnInput,
  historyAndEvents,
  ident,
  input,
  itemFromRow,
  itemWithRelationsFromRow,
  parameters,
  roleOf,
  type EditedRow,
  type HistoryEntry,
  type ItemFields,
  type MailItemRow,
  type MailItemWithRelations,
  type OutboxEvent,
  type PhotoContent,
  type StateColumns,
} from './mail-items.columns';

export type { EditedRow, HistoryEntry, OutboxEvent } from './mail-items.columns';

/**
 * The front desk's writes, each as ONE prepared statement that checks, writes the items, their
 * photos, their history rows and their notification events (the outbox: the worker turns them
 * into emails, SMS and webhooks), and returns the items with their relations, for a whole batch
 * of requests at once (see lib/batcher.ts). What to write is worked out by the rules of
 * transitions.ts; these statements write exactly that. Their column lists, parameters and row
 * mappings come from the Drizzle schema (mail-items.columns.ts).
 *
 * Why not the query builder and a transaction per request: at a busy desk these run hundreds of
 * times a second. A single autocommitted statement holds its row locks only inside the server (no
 * round trip to a busy Node event loop while they are held), costs one round trip instead of
 * seven, and a named statement is parsed and planned once per connection. A batch shares that
 * round trip and one commit (one WAL flush, the bulk of a small write's cost). The statement is
 * atomic: a batch commits together or not at all, and a failed batch is retried one by one.
 */

/** A pool (autocommit statements) or a client inside a transaction the caller opened. */
export type Queryable = {
  query: <R extends pg.QueryResultRow>(config: {
    name?: string;
    text: string;
    values: unknown[];
  }) => Promise<{ rows: R[] }>;
};

/**
 * A Drizzle transaction as a Queryable, for callers that hold one (the notification worker):
 * the statement's `$n` become Drizzle parameters. Unnamed, so planned per call.
 */
export function queryableOf(tx: DbOrTx): Queryable {
  return {
    query: async <R extends pg.QueryResultRow>({ text, values }: { text: string; values: unknown[] }) => {
      const chunks: SQLChunk[] = [];
      let last = 0;
      for (const m of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, m.index)), sql.param(values[Number(m[1]) - 1]));
        last = m.index + m[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      const result = await tx.execute(sql.join(chunks));
      return { rows: result.rows as R[] };
    },
  };
}

/** Why an intake or edit wrote nothing: the caller turns these into 404/400/402 replies. */
export type StorageOutcome = 'recipient_not_found' | 'location_not_found' | 'mailroom_not_found' | 'storage_mismatch';
export type IntakeOutcome = 'ok' | 'capped' | StorageOutcome;

/** What a change writes besides the item's columns (transitions.ts decides both). */
export type Recorded = { history: HistoryEntry[]; events: OutboxEvent[] };

export type IntakeValues = Recorded & {
  organizationId: string;
  userId: string;
  /** Every field, null when not given. */
  fields: ItemFields;
  /** The state a new item starts in (transitions.intake). */
  state: StateColumns;
  /**
   * The `created` row's notes when the statement finds the recipient expects the item's tracking
   * number (transitions.intake: how they were chosen, said so); null without a recipient.
   */
  ifExpected: string | null;
  photo: ProcessedPhoto | undefined;
  /**
   * True on the unlocked fast path: an organization with a monthly cap or on trial is answered
   * 'capped' (nothing written) and the caller retries under the usage lock with this false.
   */
  refuseCapped: boolean;
};

/** A photo's content columns as parameters named `photo_<column>`. */
const photoInputs = <R>(photo: (row: R) => ProcessedPhoto | undefined) =>
  PHOTO_CONTENT_KEYS.map((k) =>
    columnInput<R>(
      PHOTO_COLUMNS[k],
      (r) => photo(r)?.[k as keyof PhotoContent] ?? null,
      `photo_${PHOTO_COLUMNS[k].name}`,
    ),
  );
/** `insert into photos` from rows holding its id, organization, creator and `photo_<column>` content. */
const insertPhoto = (source: string, id: string, createdBy: string) => {
  const content = PHOTO_CONTENT_KEYS.map((k) => PHOTO_COLUMNS[k].name);
  return `insert into photos (${[
    PHOTO_COLUMNS.id.name,
    PHOTO_COLUMNS.organizationId.name,
    PHOTO_COLUMNS.createdBy.name,
    ...content,
  ]
    .map(ident)
    .join(', ')})
    select ${id}, ${source}.${col.organizationId}, ${createdBy}, ${content.map((n) => `${source}.${ident(`photo_${n}`)}`).join(', ')}`;
};

/**
 * The rows of `input` (organization_id, recipient_id, location_id, mailroom_id, refuse_capped and
 * more) with their verdict: 'ok', or why nothing may be written for that row. A location brings
 * its own mailroom (location_mailroom_id); a mailroom given with it must be that one.
 */
const CHECKED = `
  select t.*, l.mailroom_id as location_mailroom_id,
    case
      when t.recipient_id is not null and not exists (
        select 1 from recipients r where r.organization_id = t.organization_id and r.id = t.recipient_id)
        then 'recipient_not_found'
      when t.location_id is not null and l.id is null then 'location_not_found'
      when t.location_id is not null and t.mailroom_id is not null and t.mailroom_id <> l.mailroom_id
        then 'storage_mismatch'
      when t.location_id is null and t.mailroom_id is not null and not exists (
        select 1 from mailrooms m where m.organization_id = t.organization_id and m.id = t.mailroom_id)
        then 'mailroom_not_found'
      when t.refuse_capped and exists (
        select 1 from organizations o where o.id = t.organization_id
          -- a monthly cap, a trial, or a plan no longer in force: the locked path decides
          and (o.max_packages_per_month <> -1 or o.subscription_status <> 'active'))
        then 'capped'
      else 'ok' end as outcome
  from input t
  left join mailroom_locations l on l.organization_id = t.organization_id and l.id = t.location_id`;

/** An intake with the ids chosen for it, so each answer finds its row and the item can name its photo. */
type PreparedIntake = { id: string; photoId: string | null; v: IntakeValues };

/** The value of each inserted column, by who gives it. */
function intakeValue(key: (typeof INSERTED_KEYS)[number]): (p: PreparedIntake) => unknown {
  switch (roleOf(key)) {
    case 'key':
      return key === 'id' ? (p) => p.id : (p) => p.v.organizationId;
    case 'creator':
      return (p) => p.v.userId;
    case 'photo':
      return (p) => p.photoId;
    case 'state':
      return (p) => p.v.state[key as keyof StateColumns];
    case 'field':
      return (p) => p.v.fields[key as keyof ItemFields];
    default:
      throw new Error(`mail_items.${ITEM_COLUMNS[key].name}: no intake value`);
  }
}

const intakeParams = parameters<PreparedIntake[]>();
const insertedNames = INSERTED_KEYS.map((k) => col[k]);
const insertedValue = (n: string) => (n === col.mailroomId ? `coalesce(location_mailroom_id, ${n}) as ${n}` : n);
/** Since when an open expected package still matches (decision 033). */
const EXPECTED_SINCE = `now() - interval '${EXPECTED_PACKAGE_DAYS} days'`;
/**
 * Expected packages (decisions 033, 047): an item with a tracking number and a recipient probes
 * the open expected packages' unique index (organization, match key, recipient) once, in this same
 * statement. It matches only when the recipient the desk named (from the label, or the clerk's
 * choice) expects the number: an expected number never chooses a recipient by itself, so an item
 * logged without one (pending or under Needs a recipient) matches nothing and keeps none.
 */
const EXPECTED = `
  left join expected_packages e on e.organization_id = t.${col.organizationId} and e.match_key = t.tracking_key
    and e.recipient_id = t.${col.recipientId} and e.matched_at is null and e.created_at > ${EXPECTED_SINCE}`;
const INTAKE = `
  with input as (
    select t.*, e.id as expected_id
    from ${intakeParams.unnest(
      (batch) => batch,
      [
        ...INSERTED_KEYS.map((k) => columnInput<PreparedIntake>(ITEM_COLUMNS[k], intakeValue(k))),
        input<PreparedIntake>('refuse_capped', 'boolean[]', (p) => p.v.refuseCapped),
        input<PreparedIntake>('tracking_key', 'text[]', (p) =>
          p.v.fields.trackingNumber ? trackingKey(p.v.fields.trackingNumber) : null,
        ),
        input<PreparedIntake>('if_expected', 'text[]', (p) => p.v.ifExpected),
        ...photoInputs<PreparedIntake>((p) => p.v.photo),
      ],
      't',
    )} ${EXPECTED}
  ),
  checked as (${CHECKED}),
  item as (
    insert into mail_items (${insertedNames.join(', ')}, ${col.expectedPackageId})
    select ${insertedNames.map(insertedValue).join(', ')}, expected_id
    from checked where outcome = 'ok'
    returning *
  ),
  expected as (
    update expected_packages e set matched_item_id = item.${col.id}, matched_at = now()
    from item where e.organization_id = item.${col.organizationId} and e.id = item.${col.expectedPackageId}
  ),
  photo as (
    ${insertPhoto('c', `c.${col.photoId}`, `c.${col.createdBy}`)}
    from checked c join item on item.${col.id} = c.${col.id} where c.${col.photoId} is not null
  ),
  ${historyAndEvents(intakeParams, (batch) => batch.map((p) => ({ itemId: p.id, ...p.v })), {
    // How the recipient was chosen, said with "they expected it" only when the statement found so.
    notes: `case when item.${col.expectedPackageId} is not null and h.action = 'created'
        then coalesce((select c.if_expected from checked c where c.${col.id} = item.${col.id}), h.notes)
        else h.notes end`,
  })}
  select c.${col.id} as input_id, c.outcome, ${ITEM_WITH_RELATIONS_SELECT}
  from checked c left join item i on i.${col.id} = c.${col.id} ${ITEM_JOINS}`;

export type IntakeResult = { outcome: IntakeOutcome; item?: MailItemWithRelations };

/**
 * Logs items, their photos, their history rows and events, in one statement for the whole
 * batch. Ids are chosen here, so each answer finds its row and an item can name its photo in the
 * same statement (foreign keys are checked at its end).
 */
export async function runIntakes(db: Queryable, batch: IntakeValues[]): Promise<IntakeResult[]> {
  const prepared = batch.map((v) => ({ id: crypto.randomUUID(), photoId: v.photo ? crypto.randomUUID() : null, v }));
  const { rows } = await db.query<Record<string, unknown> & { input_id: string; outcome: IntakeOutcome }>({
    name: 'mail_item_intake',
    text: INTAKE,
    values: intakeParams.values(prepared),
  });
  const byId = new Map(rows.map((r) => [r.input_id, r]));
  return prepared.map(({ id }) => {
    const row = byId.get(id)!;
    return row.outcome === 'ok' ? { outcome: 'ok', item: itemWithRelationsFromRow(row) } : { outcome: row.outcome };
  });
}

/** The item as an edit starts from, with its row version (xmin): the edit applies only to that version. */
export type VersionedItem = MailItemRow & { version: string };
export type ItemKey = { organizationId: string; id: string };

const readParams = parameters<ItemKey[]>();
/** The rows alone: the edit statement returns the reply with its relations. */
const READ_FOR_EDIT = `
  select k.n, i.xmin::text as version, ${ITEM_SELECT}
  from ${readParams.unnest(
    (keys) => keys,
    [
      columnInput<ItemKey>(ITEM_COLUMNS.organizationId, (k) => k.organizationId),
      columnInput<ItemKey>(ITEM_COLUMNS.id, (k) => k.id),
    ],
    'k',
    true,
  )}
  join mail_items i on i.${col.organizationId} = k.${col.organizationId} and i.${col.id} = k.${col.id}`;

/**
 * The items and their versions, one answer per key (undefined: not the organization's). `lock`
 * (inside a transaction) holds the rows until commit, for an edit that lost the optimistic race
 * too often and must now wait its turn.
 */
export async function readForEdit(
  db: Queryable,
  keys: ItemKey[],
  lock = false,
): Promise<Array<VersionedItem | undefined>> {
  const { rows } = await db.query<Record<string, unknown> & { n: string; version: string }>({
    name: lock ? 'mail_item_read_for_edit_locked' : 'mail_item_read_for_edit',
    text: lock ? `${READ_FOR_EDIT} for update of i` : READ_FOR_EDIT,
    values: readParams.values(keys),
  });
  const byPosition = new Map(rows.map((r) => [Number(r.n), r]));
  return keys.map((_, i) => {
    const row = byPosition.get(i + 1);
    return row ? { ...itemFromRow(row), version: row.version } : undefined;
  });
}

const STORAGE_CHECK = `
  with input as (
    select $1::uuid as organization_id, $2::uuid as recipient_id, $3::uuid as location_id,
      $4::uuid as mailroom_id, false as refuse_capped
  )
  select outcome, location_mailroom_id from (${CHECKED}) checked`;

/** Checks an edit's new recipient or storage before it is applied (only run when they change). */
export async function checkStorage(
  db: Queryable,
  organizationId: string,
  recipientId: string | null,
  locationId: string | null,
  mailroomId: string | null,
): Promise<{ outcome: 'ok' | StorageOutcome; locationMailroomId: string | null }> {
  const { rows } = await db.query<{ outcome: 'ok' | StorageOutcome; location_mailroom_id: string | null }>({
    name: 'mail_item_storage_check',
    text: STORAGE_CHECK,
    values: [organizationId, recipientId, locationId, mailroomId],
  });
  return { outcome: rows[0]!.outcome, locationMailroomId: rows[0]!.location_mailroom_id };
}

export type Edit = Recorded & {
  organizationId: string;
  /** Who edits (a photo's creator); null for the system. */
  userId: string | null;
  id: string;
  /** The version read: if the row changed since, nothing is written and the caller reads again. */
  version: string;
  /** The fields and state as the edit leaves them (the version read, with the change applied). */
  row: EditedRow;
  /** A new photo replaces the old one (deleted with it); removePhoto clears it. */
  photo: ProcessedPhoto | undefined;
  removePhoto: boolean;
  previousPhotoId: string | null;
  /**
   * Resolving an item under Needs a recipient (decision 047): `key` is the match key of its
   * tracking number; when the recipient chosen expects it, the item is marked expected, the
   * expected package matched, and the `recipient_assigned` row's notes are `note`.
   */
  expected?: { key: string; note: string };
};
type PreparedEdit = Edit & { newPhotoId: string | null };

const editParams = parameters<PreparedEdit[]>();
const EDIT = `
  with input as (
    select * from ${editParams.unnest(
      (batch) => batch,
      [
        columnInput<PreparedEdit>(ITEM_COLUMNS.organizationId, (e) => e.organizationId),
        columnInput<PreparedEdit>(ITEM_COLUMNS.id, (e) => e.id),
        input<PreparedEdit>('version', 'text[]', (e) => e.version),
        input<PreparedEdit>('user_id', 'uuid[]', (e) => e.userId),
        ...EDITED_KEYS.map((k) => columnInput<PreparedEdit>(ITEM_COLUMNS[k], (e) => e.row[k])),
        input<PreparedEdit>('new_photo_id', 'uuid[]', (e) => e.newPhotoId),
        ...photoInputs<PreparedEdit>((e) => e.photo),
        input<PreparedEdit>('remove_photo', 'boolean[]', (e) => e.removePhoto),
        input<PreparedEdit>('previous_photo_id', 'uuid[]', (e) => e.previousPhotoId),
        input<PreparedEdit>('expected_key', 'text[]', (e) => e.expected?.key ?? null),
        input<PreparedEdit>('expected_note', 'text[]', (e) => e.expected?.note ?? null),
      ],
      't',
    )}
  ),
  item as (
    update mail_items i set ${EDITED_KEYS.map((k) => `${col[k]} = t.${col[k]}`).join(', ')},
      ${col.photoId} = case when t.new_photo_id is not null then t.new_photo_id when t.remove_photo then null
                      else i.${col.photoId} end,
      ${col.revision} = i.${col.revision} + 1,
      ${col.updatedAt} = now(),
      ${col.expectedPackageId} = coalesce((
        select e.id from expected_packages e
        where t.expected_key is not null and e.organization_id = t.${col.organizationId}
          and e.match_key = t.expected_key and e.recipient_id = t.${col.recipientId}
          and e.matched_at is null and e.created_at > ${EXPECTED_SINCE}), i.${col.expectedPackageId})
    from input t
    where i.${col.organizationId} = t.${col.organizationId} and i.${col.id} = t.${col.id} and i.xmin::text = t.version
    returning i.*
  ),
  photo as (
    ${insertPhoto('t', 't.new_photo_id', 't.user_id')}
    from input t join item on item.${col.id} = t.${col.id} where t.new_photo_id is not null
  ),
  old_photo as (
    delete from photos p using input t
    where p.organization_id = t.${col.organizationId} and p.id = t.previous_photo_id
      and (t.new_photo_id is not null or t.remove_photo) and exists (select 1 from item where item.${col.id} = t.${col.id})
  ),
  expected as (
    update expected_packages e set matched_item_id = item.${col.id}, matched_at = now()
    from input t join item on item.${col.id} = t.${col.id}
    where t.expected_key is not null and e.organization_id = item.${col.organizationId}
      and e.id = item.${col.expectedPackageId} and e.matched_at is null
  ),
  ${historyAndEvents(editParams, (batch) => batch.map((e) => ({ itemId: e.id, ...e })), {
    notes: `case when h.action = 'recipient_assigned' and item.${col.expectedPackageId} is not null
        then coalesce((select t.expected_note from input t where t.${col.id} = item.${col.id}), h.notes)
        else h.notes end`,
  })}
  select ${ITEM_WITH_RELATIONS_SELECT} from item i ${ITEM_JOINS}`;

/**
 * Applies edits, each to the version it was worked out from, in one statement; one answer per
 * edit, undefined when its item changed (or went) meanwhile. Two edits of one item must not
 * share a batch.
 */
export async function applyEdits(db: Queryable, batch: Edit[]): Promise<Array<MailItemWithRelations | undefined>> {
  const prepared = batch.map((e) => ({ ...e, newPhotoId: e.photo ? crypto.randomUUID() : null }));
  const { rows } = await db.query<Record<string, unknown>>({
    name: 'mail_item_edit',
    text: EDIT,
    values: editParams.values(prepared),
  });
  const byId = new Map(rows.map((r) => [r.id as string, itemWithRelationsFromRow(r)]));
  return batch.map((e) => byId.get(e.id));
}

/** The item and its relations, locked until the transaction ends (a delete reads what it deletes). */
export async function readWithRelationsForUpdate(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<MailItemWithRelations | undefined> {
  const { rows } = await db.query<Record<string, unknown>>({
    name: 'mail_item_read_locked_with_relations',
    text: `select ${ITEM_WITH_RELATIONS_SELECT} from mail_items i ${ITEM_JOINS}
           where i.${col.organizationId} = $1 and i.${col.id} = $2 for update of i`,
    values: [organizationId, id],
  });
  return rows[0] ? itemWithRelationsFromRow(rows[0]) : undefined;
}

export type Removal = Recorded & ItemKey;

const removeParams = parameters<Removal[]>();
const REMOVE = `
  with input as (
    select * from ${removeParams.unnest(
      (batch) => batch,
      [
        columnInput<Removal>(ITEM_COLUMNS.organizationId, (r) => r.organizationId),
        columnInput<Removal>(ITEM_COLUMNS.id, (r) => r.id),
      ],
      't',
    )}
  ),
  item as (
    delete from mail_items i using input t
    where i.${col.organizationId} = t.${col.organizationId} and i.${col.id} = t.${col.id}
    returning i.*
  ),
  photo as (
    delete from photos p using item
    where p.organization_id = item.${col.organizationId} and p.id = item.${col.photoId}
  ),
  ${historyAndEvents(removeParams, (batch) => batch.map((r) => ({ itemId: r.id, ...r })))}
  select ${col.id} as id from item`;

/** Deletes items with their photos, writing their history rows and events; answers the ids deleted. */
export async function removeItems(db: Queryable, batch: Removal[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>({
    name: 'mail_item_delete',
    text: REMOVE,
    values: removeParams.values(batch),
  });
  return new Set(rows.map((r) => r.id));
}

// ---------------------------------------------------------------------------------------------
// The writer: what the service calls

export const MAIL_ITEM_NOT_FOUND = 'Mail item not found';
/** An edit that finds its item changed meanwhile is worked out again this many times, then locks. */
const OPTIMISTIC_EDIT_ATTEMPTS = 3;

const STORAGE_ERRORS = {
  recipient_not_found: () => notFound('Recipient not found'),
  location_not_found: () => notFound('Storage location not found'),
  mailroom_not_found: () => notFound('Mailroom not found'),
  storage_mismatch: () => badRequest('The storage location is not in that mailroom', 'storage_mismatch'),
} as const;

/** Why a write found nothing to write: a recipient or storage that is not the organization's. */
function storageError(outcome: IntakeOutcome | keyof typeof STORAGE_ERRORS): AppError {
  return outcome in STORAGE_ERRORS
    ? STORAGE_ERRORS[outcome as keyof typeof STORAGE_ERRORS]()
    : new AppError(500, `Unexpected intake outcome ${outcome}`);
}

/**
 * A referenced row deleted between the check and the write (same statement, fresh snapshot for
 * the foreign key) answers like a missing one.
 */
async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const fk = violatedForeignKey(err);
    if (fk?.includes('recipient')) throw storageError('recipient_not_found');
    if (fk?.includes('location')) throw storageError('location_not_found');
    if (fk?.includes('mailroom')) throw storageError('mailroom_not_found');
    throw err;
  }
}

const orgsOf = (inputs: { organizationId: string }[]) => inputs.map((i) => i.organizationId);

/** The recipient, location and mailroom an edit moves an item to (null: not given), checked before it is worked out. */
export type StorageMove = { recipientId: string | null; locationId: string | null; mailroomId: string | null };

/**
 * How an edit is worked out from the row it starts from (the service's rules, no database):
 * `move` names what to check of the recipient and storage (undefined: nothing changes there),
 * `plan` works out the edit with the checked storage's mailroom (undefined when nothing was
 * checked). Either may throw a refusal. Both run again when the row changed meanwhile.
 */
export type EditPlanner = {
  move: (before: VersionedItem) => StorageMove | undefined;
  plan: (before: VersionedItem, checked: { locationMailroomId: string | null } | undefined) => Edit;
};

/**
 * The one writer of mail items for requests: it batches concurrent requests (lib/batcher.ts),
 * scopes every statement to the organizations it writes for (db/tenant-scope.ts), checks the
 * storage an edit moves to, retries an edit that lost a race and falls back to the row lock,
 * serialises capped organizations' intakes under their usage lock, and answers each write with
 * the item and its relations (MailItemWithRelations) or the reply's error (404, 400, 402).
 * What to write is the caller's, worked out with transitions.ts.
 */
export function createMailItemWriter(pool: pg.Pool, log?: FastifyBaseLogger) {
  // Concurrent requests share one statement (and one commit) per turn of the event loop; a few
  // batches run at once so reads keep connections of the pool to themselves.
  const batching = { maxSize: 64, maxInFlight: 4 };

  /**
   * Tells the live desk (decision 043) what an autocommitted batch wrote, in one statement after
   * it, awaited in the batch's turn: unawaited, an overloaded instance piled these statements up
   * on the pool without bound (bench:live-streams collapsed to 3 req/s). Never throws: the batch committed, and a failure here must not make the batcher retry it
   * one by one (that would write it twice); a stream that misses it is refreshed at its next
   * reconnect, and its re-check of the session is unaffected.
   */
  async function announce(items: Array<{ organizationId: string; id: string } | undefined>) {
    const written = items.filter((i): i is { organizationId: string; id: string } => i !== undefined);
    try {
      await publishLiveChanges(pool, mailItemChanges(written));
    } catch (err) {
      log?.warn({ err }, 'live desk: a mail item change could not be announced');
    }
  }
  const keyOf = (item: MailItemWithRelations | undefined) =>
    item ? { organizationId: item.item.organizationId, id: item.item.id } : undefined;

  // A batch serves several requests, perhaps of several organizations: it runs scoped to those.
  const intakeBatch = createBatcher(
    (batch: IntakeValues[]) =>
      withTenants(orgsOf(batch), async () => {
        const results = await runIntakes(pool, batch);
        await announce(results.map((r) => keyOf(r.item)));
        return results;
      }),
    batching,
  );
  const readBatch = createBatcher(
    (keys: ItemKey[]) => withTenants(orgsOf(keys), () => readForEdit(pool, keys)),
    batching,
  );
  const editBatch = createBatcher(
    (edits: Edit[]) =>
      withTenants(orgsOf(edits), async () => {
        const written = await applyEdits(pool, edits);
        await announce(written.map(keyOf));
        return written;
      }),
    {
      ...batching,
      keyOf: (e: Edit) => e.id, // two edits of one item go in turn
    },
  );
  /** A transaction of its own, scoped to the organization it writes for. */
  const transaction = <T>(organizationId: string, work: (client: pg.PoolClient) => Promise<T>) =>
    withTenants([organizationId], () => withPgTransaction(pool, work));

  /** Logs an item for an organization with a monthly cap or on trial, in the caller's transaction: counted under the usage lock. */
  async function intakeCounted(client: pg.PoolClient, values: IntakeValues) {
    const usage = await checkPackageAllowance(client, values.organizationId);
    if (usage === 'package_limit') throw new AppError(402, PACKAGE_LIMIT_MESSAGE, 'package_limit');
    if (usage !== 'counted') throw writeBlockError(usage);
    const [result] = await runIntakes(client, [{ ...values, refuseCapped: false }]);
    if (result!.item) await publishLiveChanges(client, mailItemChanges([keyOf(result!.item)!]));
    return result!;
  }

  /** Logs an item for an organization with a monthly cap or on trial: serialised, counted, exact. */
  function intakeWithinCap(values: IntakeValues) {
    return transaction(values.organizationId, (client) => intakeCounted(client, values));
  }

  /**
   * A write sent with an Idempotency-Key (decision 044): a stored answer for the key is replayed
   * (422 for another request under it); otherwise `work` runs in a transaction that also stores
   * its answer, so the write and the key commit together or not at all. Two requests with one
   * key at once: the second's insert waits for the first's commit, fails on the primary key, its
   * write rolls back, and it replays the first's answer. A refusal (4xx) stores nothing: nothing
   * was written, so the same key may be sent again (an offline item corrected by the clerk).
   */
  async function remembered<T>(
    organizationId: string,
    claim: IdempotencyClaim,
    work: (client: pg.PoolClient) => Promise<T>,
    answer: (result: T) => StoredAnswer,
  ): Promise<Answered> {
    const find = () => withTenants([organizationId], () => idempotencyRepository.find(pool, organizationId, claim));
    const stored = await find();
    if (stored) return replayOf(stored, claim);
    try {
      return await writing(() =>
        transaction(organizationId, async (client) => {
          const stored = answer(await work(client));
          await idempotencyRepository.remember(client, organizationId, claim, stored);
          return { ...stored, replayed: false };
        }),
      );
    } catch (err) {
      if (violatedUniqueConstraint(err) !== IDEMPOTENCY_CONSTRAINT) throw err;
      const winner = await find();
      if (!winner) throw err;
      return replayOf(winner, claim);
    }
  }

  /** The edit of the row read: 404 when there is none, the storage it moves to checked first. */
  async function planned(
    organizationId: string,
    before: VersionedItem | undefined,
    planner: EditPlanner,
    db: Queryable,
  ): Promise<Edit> {
    if (!before) throw notFound(MAIL_ITEM_NOT_FOUND);
    const move = planner.move(before);
    if (!move) return planner.plan(before, undefined);
    const check = await checkStorage(db, organizationId, move.recipientId, move.locationId, move.mailroomId);
    if (check.outcome !== 'ok') throw storageError(check.outcome);
    return planner.plan(before, { locationMailroomId: check.locationMailroomId });
  }

  /** The hand-over's work inside its transaction (see handOverTogether). */
  async function handOverIn<P>(
    client: pg.PoolClient,
    organizationId: string,
    ids: string[],
    record: (db: Queryable, items: VersionedItem[]) => Promise<P>,
    plan: (before: VersionedItem, proof: P) => Edit,
  ): Promise<{ proof: P; items: MailItemWithRelations[] }> {
    const keys = [...ids].sort().map((id) => ({ organizationId, id }));
    const rows = await readForEdit(client, keys, true);
    const found = rows.map((before) => {
      if (!before) throw notFound(MAIL_ITEM_NOT_FOUND);
      return before;
    });
    const proof = await record(client, found);
    const written = await writing(() =>
      applyEdits(
        client,
        found.map((before) => plan(before, proof)),
      ),
    );
    // Locked rows cannot have changed since they were read.
    if (written.some((item) => !item)) throw new AppError(500, 'A locked mail item changed during its hand-over');
    await publishLiveChanges(client, mailItemChanges(keys));
    const byId = new Map(written.map((w) => [w!.item.id, w!]));
    return { proof, items: ids.map((id) => byId.get(id)!) };
  }

  return {
    /**
     * Logs an item with its photo, `created` row and event. Unlimited organizations share a
     * batched statement; one with a monthly cap (or on trial) is answered 'capped' there and
     * logged again under its usage lock, so the cap is exact.
     */
    async intake(values: Omit<IntakeValues, 'refuseCapped'>): Promise<MailItemWithRelations> {
      const result = await writing(async () => {
        const fast = await intakeBatch({ ...values, refuseCapped: true });
        return fast.outcome === 'capped' ? intakeWithinCap({ ...values, refuseCapped: false }) : fast;
      });
      if (!result.item) throw storageError(result.outcome);
      return result.item;
    },

    /**
     * An intake sent with an Idempotency-Key: in a transaction of its own with the key (not
     * batched), answered by `answer` from the item written, or the stored answer replayed.
     */
    async intakeOnce(
      values: Omit<IntakeValues, 'refuseCapped'>,
      claim: IdempotencyClaim,
      answer: (item: MailItemWithRelations) => StoredAnswer,
    ): Promise<Answered> {
      return remembered(
        values.organizationId,
        claim,
        async (client) => {
          const [first] = await runIntakes(client, [{ ...values, refuseCapped: true }]);
          // A capped organization's intake is counted (and announced to the live desk) by intakeCounted.
          const capped = first!.outcome === 'capped';
          const result = capped ? await intakeCounted(client, { ...values, refuseCapped: false }) : first!;
          if (!result.item) throw storageError(result.outcome);
          if (!capped) await publishLiveChanges(client, mailItemChanges([keyOf(result.item)!]));
          return result.item;
        },
        answer,
      );
    },

    /**
     * An edit sent with an Idempotency-Key: under the row lock at once (its transaction holds the
     * key too), answered by `answer`, or the stored answer replayed.
     */
    async editOnce(
      key: ItemKey,
      planner: EditPlanner,
      claim: IdempotencyClaim,
      answer: (item: MailItemWithRelations) => StoredAnswer,
    ): Promise<Answered> {
      const { organizationId } = key;
      return remembered(
        organizationId,
        claim,
        async (client) => {
          const [before] = await readForEdit(client, [key], true);
          const [edited] = await applyEdits(client, [await planned(organizationId, before, planner, client)]);
          if (!edited) throw new AppError(500, 'A locked mail item changed during its edit');
          await publishLiveChanges(client, mailItemChanges([keyOf(edited)!]));
          return edited;
        },
        answer,
      );
    },

    /**
     * Edits an item: the row is read, the edit worked out by `planner`, and written in one
     * statement that applies only to the version read; if another change got in between, it is
     * worked out again from the new version (optimistic concurrency), and after a few lost races
     * under the row lock.
     */
    async edit(key: ItemKey, planner: EditPlanner): Promise<MailItemWithRelations> {
      const { organizationId } = key;
      let item: MailItemWithRelations | undefined;
      for (let attempt = 1; !item && attempt <= OPTIMISTIC_EDIT_ATTEMPTS; attempt++) {
        const before = await readBatch(key);
        const edit = await withTenants([organizationId], () => planned(organizationId, before, planner, pool));
        item = await writing(() => editBatch(edit));
      }
      // Lost the race every time (many clerks on one item): wait for the row lock instead.
      item ??= await writing(() =>
        transaction(organizationId, async (client) => {
          const [before] = await readForEdit(client, [key], true);
          const [edited] = await applyEdits(client, [await planned(organizationId, before, planner, client)]);
          if (edited) await publishLiveChanges(client, mailItemChanges([keyOf(edited)!]));
          return edited;
        }),
      );
      if (!item) throw notFound(MAIL_ITEM_NOT_FOUND);
      return item;
    },

    /**
     * Hands items over together with one proof (the desk's Hand over, decision 031): all or none,
     * in one transaction. The items are locked in id order (two desks handing over overlapping
     * items wait instead of deadlocking); `record` writes the proof from them and answers what
     * `plan` needs; each item is then written as `plan` works it out from its row. A missing item
     * (404) or a refusal `record` or `plan` throws ends it with nothing written.
     */
    async handOverTogether<P>(
      organizationId: string,
      ids: string[],
      record: (db: Queryable, items: VersionedItem[]) => Promise<P>,
      plan: (before: VersionedItem, proof: P) => Edit,
    ): Promise<{ proof: P; items: MailItemWithRelations[] }> {
      return transaction(organizationId, (client) => handOverIn(client, organizationId, ids, record, plan));
    },

    /** A hand-over sent with an Idempotency-Key: its proof and the key commit together. */
    async handOverTogetherOnce<P>(
      organizationId: string,
      ids: string[],
      record: (db: Queryable, items: VersionedItem[]) => Promise<P>,
      plan: (before: VersionedItem, proof: P) => Edit,
      claim: IdempotencyClaim,
      answer: (result: { proof: P; items: MailItemWithRelations[] }) => StoredAnswer,
    ): Promise<Answered> {
      return remembered(
        organizationId,
        claim,
        (client) => handOverIn(client, organizationId, ids, record, plan),
        answer,
      );
    },

    /** Deletes an item (locked, read with its relations for `plan`), its photo, with what `plan` records. */
    async remove(key: ItemKey, plan: (before: MailItemWithRelations) => Recorded): Promise<void> {
      await transaction(key.organizationId, async (client) => {
        const before = await readWithRelationsForUpdate(client, key.organizationId, key.id);
        if (!before) throw notFound(MAIL_ITEM_NOT_FOUND);
        await removeItems(client, [{ ...key, ...plan(before) }]);
        await publishLiveChanges(client, mailItemChanges([key]));
      });
    },
  };
}

/**
 * An edit inside a transaction the caller holds (the notification worker's): the row locked,
 * `plan` works out the edit from it (undefined: nothing to write), and it is written. Answers the
 * item as written, or undefined when nothing was.
 */
export async function editInTransaction(
  tx: DbOrTx,
  key: ItemKey,
  plan: (before: VersionedItem | undefined) => Edit | undefined,
): Promise<MailItemWithRelations | undefined> {
  const db = queryableOf(tx);
  const [before] = await readForEdit(db, [key], true);
  const edit = plan(before);
  if (!edit) return undefined;
  const [written] = await applyEdits(db, [edit]);
  if (written) await publishLiveChanges(db, mailItemChanges([key]));
  return written;
}

export type MailItemWriter = ReturnType<typeof createMailItemWriter>;
