import { sql, type SQL } from 'drizzle-orm';
import { EXPECTED_PACKAGE_DAYS, trackingKey } from '../../../contract';
import type { ProcessedPhoto } from '../photos/photo-processing';
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
  parameters,
  roleOf,
  type EditedRow,
  type HistoryEntry,
  type ItemFields,
  type MailItemRow,
  type OutboxEvent,
  type PhotoContent,
  type StateColumns,
} from './mail-items.columns';

/**
 * The writer's statements (mail-items.writes.ts runs them): each one's name, its text, built once
 * when this module loads from the Drizzle schema (mail-items.columns.ts), and how a batch becomes
 * its parameters. Nothing here runs a statement. The text of every one, as PostgreSQL receives
 * it, is committed under sql/ and compared by statements.test.ts: a change of a statement shows
 * in review as a change of its .sql file (`npm run sql:update` writes them again).
 */

/** A named statement over a batch `B`, answering rows `R`: its text, and the batch as the values of its `$n`. */
export type Statement<B, R = Record<string, unknown>> = {
  name: string;
  text: string;
  values: (batch: B) => unknown[];
  /** Never set: carries the type of the rows to the code that runs it. */
  rows?: R[];
};
type Row = Record<string, unknown>;

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
export type PreparedIntake = { id: string; photoId: string | null; v: IntakeValues };

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
const INTAKE_TEXT = `
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

export const INTAKE: Statement<PreparedIntake[], Row & { input_id: string; outcome: IntakeOutcome }> = {
  name: 'mail_item_intake',
  text: INTAKE_TEXT,
  values: intakeParams.values,
};

/** The item as an edit starts from, with its row version (xmin): the edit applies only to that version. */
export type VersionedItem = MailItemRow & { version: string };
export type ItemKey = { organizationId: string; id: string };

const readParams = parameters<ItemKey[]>();
/** The rows alone: the edit statement returns the reply with its relations. */
const READ_FOR_EDIT_TEXT = `
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

/** The items of the keys and their versions (xmin). */
export const READ_FOR_EDIT: Statement<ItemKey[], Row & { n: string; version: string }> = {
  name: 'mail_item_read_for_edit',
  text: READ_FOR_EDIT_TEXT,
  values: readParams.values,
};
/** The same, the rows locked until the transaction ends (an edit that must wait its turn). */
export const READ_FOR_EDIT_LOCKED: typeof READ_FOR_EDIT = {
  name: 'mail_item_read_for_edit_locked',
  text: `${READ_FOR_EDIT_TEXT} for update of i`,
  values: readParams.values,
};

/** Whether an edit's new recipient and storage are the organization's (CHECKED, for one row). */
export type StorageCheckInput = {
  organizationId: string;
  recipientId: string | null;
  locationId: string | null;
  mailroomId: string | null;
};
const STORAGE_CHECK_TEXT = `
  with input as (
    select $1::uuid as organization_id, $2::uuid as recipient_id, $3::uuid as location_id,
      $4::uuid as mailroom_id, false as refuse_capped
  )
  select outcome, location_mailroom_id from (${CHECKED}) checked`;

export const STORAGE_CHECK: Statement<
  StorageCheckInput,
  { outcome: 'ok' | StorageOutcome; location_mailroom_id: string | null }
> = {
  name: 'mail_item_storage_check',
  text: STORAGE_CHECK_TEXT,
  values: (c) => [c.organizationId, c.recipientId, c.locationId, c.mailroomId],
};

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
export type PreparedEdit = Edit & { newPhotoId: string | null };

const editParams = parameters<PreparedEdit[]>();
const EDIT_TEXT = `
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

export const EDIT: Statement<PreparedEdit[]> = {
  name: 'mail_item_edit',
  text: EDIT_TEXT,
  values: editParams.values,
};

/** The item and its relations, locked until the transaction ends (a delete reads what it deletes). */
export const READ_LOCKED_WITH_RELATIONS: Statement<ItemKey> = {
  name: 'mail_item_read_locked_with_relations',
  text: `select ${ITEM_WITH_RELATIONS_SELECT} from mail_items i ${ITEM_JOINS}
           where i.${col.organizationId} = $1 and i.${col.id} = $2 for update of i`,
  values: (k) => [k.organizationId, k.id],
};

export type Removal = Recorded & ItemKey;

const removeParams = parameters<Removal[]>();
const REMOVE_TEXT = `
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

export const REMOVE: Statement<Removal[], { id: string }> = {
  name: 'mail_item_delete',
  text: REMOVE_TEXT,
  values: removeParams.values,
};

/** The free-text columns of an item an erasure may rewrite (decision 015). */
type ScrubbedColumn = 'collectorName' | 'sender' | 'notes' | 'description' | 'senderAddress';

/**
 * What an erasure of a recipient's personal data (decision 015) rewrites in mail items, as SQL
 * over the item `i` the recipients module works out (it knows the names to look for).
 */
export type ItemScrub = {
  /** Which of the organization's items. */
  where: SQL;
  /** Each column's new value; an item is written only when one of them changes. */
  set: Partial<Record<ScrubbedColumn, SQL>>;
  /**
   * Their photos go too: the item loses its photo (which alone makes it changed), and the photo's
   * row is deleted unless an item `x` for which `keep` holds still shows it.
   */
  removePhotos?: { keep: SQL };
};

/**
 * The erasure's rewrite of items (scrubItems): built per call, as its SQL carries the names the
 * erasure looks for. Answers the ids of the items changed and how many photos were deleted.
 */
export function scrubStatement(organizationId: string, scrub: ItemScrub): SQL {
  const columns = (Object.keys(scrub.set) as ScrubbedColumn[]).map((k) => [k, col[k]] as const);
  const list = (alias: string) => sql.raw(columns.map(([, c]) => `${alias}.${c}`).join(', '));
  const photos = scrub.removePhotos;
  return sql`
    with old as (
      select i.${sql.raw(col.id)}, i.${sql.raw(col.photoId)},
        ${sql.join(
          columns.map(([k, c]) => sql`${scrub.set[k]!} as ${sql.raw(c)}`),
          sql`, `,
        )}
      from mail_items i
      where i.${sql.raw(col.organizationId)} = ${organizationId} and (${scrub.where})
      for update
    ), changed as (
      update mail_items x
      set ${sql.raw(columns.map(([, c]) => `${c} = o.${c}`).join(', '))}${sql.raw(photos ? `, ${col.photoId} = null` : '')},
          ${sql.raw(`${col.revision} = x.${col.revision} + 1, ${col.updatedAt} = now()`)}
      from old o
      where x.${sql.raw(col.organizationId)} = ${organizationId} and x.${sql.raw(col.id)} = o.${sql.raw(col.id)}
        and ((${list('x')}) is distinct from (${list('o')})${sql.raw(photos ? ` or x.${col.photoId} is not null` : '')})
      returning x.${sql.raw(col.id)} as id, o.${sql.raw(col.photoId)} as photo_id
    ), gone as (
      ${
        photos
          ? sql`delete from photos p
        where p.organization_id = ${organizationId}
          and p.id in (select c.photo_id from changed c where c.photo_id is not null)
          and not exists (
            select 1 from mail_items x
            where x.${sql.raw(col.organizationId)} = p.organization_id and x.${sql.raw(col.photoId)} = p.id and (${photos.keep}))
        returning p.id`
          : sql`select null::uuid as id where false`
      }
    )
    select array(select id from changed)::text[] as ids, (select count(*) from gone)::int as photos`;
}

/** Every statement of the writer, for the committed .sql files (statements.test.ts). */
export const WRITER_STATEMENTS: ReadonlyArray<Statement<never, unknown>> = [
  INTAKE,
  READ_FOR_EDIT,
  READ_FOR_EDIT_LOCKED,
  STORAGE_CHECK,
  EDIT,
  READ_LOCKED_WITH_RELATIONS,
  REMOVE,
];
