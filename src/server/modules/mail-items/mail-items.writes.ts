import crypto from 'node:crypto';
import type pg from 'pg';
import type { ProcessedPhoto } from '../photos/photo-processing';
import type { MailItemRow, MailItemWithRelations } from './mail-items.repository';

/**
 * The front desk's two hot writes, intake and edit, each as ONE prepared statement that checks,
 * writes the items, their photos, their history rows and their notification events (the outbox:
 * the worker turns them into emails, SMS and webhooks), and returns the items with their
 * relations, for a whole batch of requests at once (see lib/batcher.ts).
 *
 * Why not the query builder and a transaction per request: at a busy desk these run hundreds of
 * times a second. A single autocommitted statement holds its row locks only inside the server (no
 * round trip to a busy Node event loop while they are held), costs one round trip instead of
 * seven, and a named statement is parsed and planned once per connection. A batch shares that
 * round trip and one commit (one WAL flush, the bulk of a small write's cost). The statement is
 * atomic: a batch commits together or not at all, and a failed batch is retried one by one.
 */

/** A pool (autocommit statements) or a client inside a transaction the caller opened. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** Why an intake or edit wrote nothing: the caller turns these into 404/400/402 replies. */
export type StorageOutcome = 'recipient_not_found' | 'location_not_found' | 'mailroom_not_found' | 'storage_mismatch';
export type IntakeOutcome = 'ok' | 'capped' | StorageOutcome;

export type IntakeValues = {
  organizationId: string;
  userId: string;
  type: string;
  recipientId: string | null;
  locationId: string | null;
  mailroomId: string | null;
  trackingNumber: string | null;
  sender: string | null;
  senderAddress: string | null;
  description: string | null;
  courierCompany: string | null;
  collectedByStaff: string | null;
  collectorName: string | null;
  size: string | null;
  weight: string | null;
  notes: string | null;
  photo: ProcessedPhoto | undefined;
  /**
   * True on the unlocked fast path: an organization with a monthly cap or on trial is answered
   * 'capped' (nothing written) and the caller retries under the usage lock with this false.
   */
  refuseCapped: boolean;
};

/** The item as its reply needs it: every column plus its recipient, location and mailroom. */
const ITEM_REPLY = `
  i.id, i.organization_id, i.recipient_id, i.location_id, i.mailroom_id, i.tracking_number, i.type,
  i.sender, i.courier_company, i.collected_by_staff, i.collector_name, i.sender_address, i.description,
  i.size, i.weight, i.status, i.arrived_at, i.notified_at, i.delivered_at, i.notes, i.photo_id,
  i.created_by, i.handed_over_by, i.created_at, i.updated_at,
  r.id as r_id, r.first_name as r_first_name, r.last_name as r_last_name, r.email as r_email,
  r.phone as r_phone, r.unit as r_unit, r.department as r_department,
  l.id as l_id, l.name as l_name, lm.name as l_mailroom_name, m.id as m_id, m.name as m_name`;

/** Every join also matches organization_id, so a foreign row can never be attached. */
const ITEM_RELATIONS = `
  left join recipients r on r.organization_id = i.organization_id and r.id = i.recipient_id
  left join mailroom_locations l on l.organization_id = i.organization_id and l.id = i.location_id
  left join mailrooms lm on lm.id = l.mailroom_id
  left join mailrooms m on m.organization_id = i.organization_id and m.id = i.mailroom_id`;

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

const INTAKE = `
  with input as (
    select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[], $7::text[],
      $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
      $16::text[], $17::text[], $18::boolean[], $19::uuid[], $20::text[], $21::bytea[], $22::bytea[],
      $23::int[], $24::int[])
      as t(id, organization_id, user_id, recipient_id, location_id, mailroom_id, type, tracking_number, sender,
        sender_address, description, courier_company, collected_by_staff, collector_name, size, weight, notes,
        refuse_capped, photo_id, content_type, data, thumbnail, width, height)
  ),
  checked as (${CHECKED}),
  item as (
    insert into mail_items (id, organization_id, created_by, recipient_id, location_id, mailroom_id, type,
      tracking_number, sender, sender_address, description, courier_company, collected_by_staff,
      collector_name, size, weight, notes, photo_id, status)
    select id, organization_id, user_id, recipient_id, location_id, coalesce(location_mailroom_id, mailroom_id),
      type, tracking_number, sender, sender_address, description, courier_company, collected_by_staff,
      collector_name, size, weight, notes, photo_id, 'pending'
    from checked where outcome = 'ok'
    returning *
  ),
  photo as (
    insert into photos (id, organization_id, created_by, content_type, data, thumbnail, width, height)
    select c.photo_id, c.organization_id, c.user_id, c.content_type, c.data, c.thumbnail, c.width, c.height
    from checked c join item on item.id = c.id where c.photo_id is not null
  ),
  history as (
    insert into mail_item_history (organization_id, mail_item_id, action, new_status, performed_by)
    select organization_id, id, 'created', 'pending', created_by from item
  ),
  events as (
    insert into notification_jobs (organization_id, channel, event, mail_item_id, recipient_id)
    select organization_id, 'event', 'mail_item.created', id, recipient_id from item
  )
  select c.id as input_id, c.outcome, ${ITEM_REPLY}
  from checked c left join item i on i.id = c.id ${ITEM_RELATIONS}`;

export type IntakeResult = { outcome: IntakeOutcome; item?: MailItemWithRelations };

/**
 * Logs items (pending), their photos and their 'created' history rows, in one statement for the
 * whole batch. Ids are chosen here, so each answer finds its row and an item can name its photo
 * in the same statement (foreign keys are checked at its end).
 */
export async function runIntakes(db: Queryable, batch: IntakeValues[]): Promise<IntakeResult[]> {
  const ids = batch.map(() => crypto.randomUUID());
  const column = <T>(get: (v: IntakeValues) => T) => batch.map(get);
  const { rows } = await db.query<ReplyRow & { input_id: string; outcome: IntakeOutcome }>({
    name: 'mail_item_intake',
    text: INTAKE,
    values: [
      ids,
      column((v) => v.organizationId),
      column((v) => v.userId),
      column((v) => v.recipientId),
      column((v) => v.locationId),
      column((v) => v.mailroomId),
      column((v) => v.type),
      column((v) => v.trackingNumber),
      column((v) => v.sender),
      column((v) => v.senderAddress),
      column((v) => v.description),
      column((v) => v.courierCompany),
      column((v) => v.collectedByStaff),
      column((v) => v.collectorName),
      column((v) => v.size),
      column((v) => v.weight),
      column((v) => v.notes),
      column((v) => v.refuseCapped),
      column((v) => (v.photo ? crypto.randomUUID() : null)),
      column((v) => v.photo?.contentType ?? null),
      column((v) => v.photo?.data ?? null),
      column((v) => v.photo?.thumbnail ?? null),
      column((v) => v.photo?.width ?? null),
      column((v) => v.photo?.height ?? null),
    ],
  });
  const byId = new Map(rows.map((r) => [r.input_id, r]));
  return ids.map((id) => {
    const row = byId.get(id)!;
    return row.outcome === 'ok' ? { outcome: 'ok', item: toRelations(row) } : { outcome: row.outcome };
  });
}

/** The item as an edit starts from, with its row version (xmin): the edit applies only to that version. */
export type VersionedItem = MailItemRow & { version: string };
export type ItemKey = { organizationId: string; id: string };

/** The rows alone: the edit statement returns the reply with its relations. */
const READ_FOR_EDIT = `
  select k.n, i.xmin::text as version, i.*
  from unnest($1::uuid[], $2::uuid[]) with ordinality as k(organization_id, id, n)
  join mail_items i on i.organization_id = k.organization_id and i.id = k.id`;

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
  const { rows } = await db.query<ReplyRow & { n: string; version: string }>({
    name: lock ? 'mail_item_read_for_edit_locked' : 'mail_item_read_for_edit',
    text: lock ? `${READ_FOR_EDIT} for update of i` : READ_FOR_EDIT,
    values: [keys.map((k) => k.organizationId), keys.map((k) => k.id)],
  });
  const byPosition = new Map(rows.map((r) => [Number(r.n), r]));
  return keys.map((_, i) => {
    const row = byPosition.get(i + 1);
    return row ? { ...toRelations(row).item, version: row.version } : undefined;
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

/** The columns an edit writes: the whole editable row as it should be afterwards. */
export type EditedRow = Pick<
  MailItemRow,
  | 'type'
  | 'recipientId'
  | 'locationId'
  | 'mailroomId'
  | 'trackingNumber'
  | 'sender'
  | 'senderAddress'
  | 'description'
  | 'courierCompany'
  | 'collectedByStaff'
  | 'collectorName'
  | 'size'
  | 'weight'
  | 'notes'
  | 'status'
  | 'notifiedAt'
  | 'deliveredAt'
  | 'handedOverBy'
>;

export type HistoryEntry = {
  action: string;
  previousStatus?: string | null;
  newStatus?: string | null;
  notes?: string | null;
};

export type Edit = {
  organizationId: string;
  userId: string;
  id: string;
  /** The version read: if the row changed since, nothing is written and the caller reads again. */
  version: string;
  row: EditedRow;
  /** A new photo replaces the old one (deleted with it); removePhoto clears it. */
  photo: ProcessedPhoto | undefined;
  removePhoto: boolean;
  previousPhotoId: string | null;
  history: HistoryEntry[];
};

const EDIT = `
  with input as (
    select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::uuid[], $7::uuid[],
      $8::uuid[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
      $16::text[], $17::text[], $18::text[], $19::text[], $20::timestamptz[], $21::timestamptz[], $22::uuid[],
      $23::uuid[], $24::text[], $25::bytea[], $26::bytea[], $27::int[], $28::int[], $29::boolean[], $30::uuid[])
      as t(organization_id, id, version, user_id, type, recipient_id, location_id, mailroom_id, tracking_number,
        sender, sender_address, description, courier_company, collected_by_staff, collector_name, size, weight,
        notes, status, notified_at, delivered_at, handed_over_by, new_photo_id, content_type, data, thumbnail,
        width, height, remove_photo, previous_photo_id)
  ),
  item as (
    update mail_items i set type = t.type, recipient_id = t.recipient_id, location_id = t.location_id,
      mailroom_id = t.mailroom_id, tracking_number = t.tracking_number, sender = t.sender,
      sender_address = t.sender_address, description = t.description, courier_company = t.courier_company,
      collected_by_staff = t.collected_by_staff, collector_name = t.collector_name, size = t.size,
      weight = t.weight, notes = t.notes, status = t.status, notified_at = t.notified_at,
      delivered_at = t.delivered_at, handed_over_by = t.handed_over_by,
      photo_id = case when t.new_photo_id is not null then t.new_photo_id when t.remove_photo then null
                      else i.photo_id end,
      updated_at = now()
    from input t
    where i.organization_id = t.organization_id and i.id = t.id and i.xmin::text = t.version
    returning i.*
  ),
  photo as (
    insert into photos (id, organization_id, created_by, content_type, data, thumbnail, width, height)
    select t.new_photo_id, t.organization_id, t.user_id, t.content_type, t.data, t.thumbnail, t.width, t.height
    from input t join item on item.id = t.id where t.new_photo_id is not null
  ),
  old_photo as (
    delete from photos p using input t
    where p.organization_id = t.organization_id and p.id = t.previous_photo_id
      and (t.new_photo_id is not null or t.remove_photo) and exists (select 1 from item where item.id = t.id)
  ),
  changes as (
    select h.*, t.organization_id, t.user_id
    from unnest($31::uuid[], $32::text[], $33::text[], $34::text[], $35::text[]) with ordinality
      as h(item_id, action, previous_status, new_status, notes, n)
    join input t on t.id = h.item_id
    where exists (select 1 from item where item.id = h.item_id)
  ),
  history as (
    insert into mail_item_history (organization_id, mail_item_id, action, previous_status, new_status, notes, performed_by)
    select organization_id, item_id, action, previous_status, new_status, notes, user_id from changes order by n
  ),
  events as (
    insert into notification_jobs (organization_id, channel, event, mail_item_id, recipient_id)
    select c.organization_id, 'event', 'mail_item.' || c.action, c.item_id, item.recipient_id
    from changes c join item on item.id = c.item_id
    where c.action in ('notified', 'delivered', 'returned')
  )
  select ${ITEM_REPLY} from item i ${ITEM_RELATIONS}`;

/**
 * Applies edits, each to the version it was worked out from, in one statement; one answer per
 * edit, undefined when its item changed (or went) meanwhile. Two edits of one item must not
 * share a batch.
 */
export async function applyEdits(db: Queryable, batch: Edit[]): Promise<Array<MailItemWithRelations | undefined>> {
  const column = <T>(get: (e: Edit) => T) => batch.map(get);
  const history = batch.flatMap((e) => e.history.map((h) => ({ id: e.id, ...h })));
  const { rows } = await db.query<ReplyRow>({
    name: 'mail_item_edit',
    text: EDIT,
    values: [
      column((e) => e.organizationId),
      column((e) => e.id),
      column((e) => e.version),
      column((e) => e.userId),
      column((e) => e.row.type),
      column((e) => e.row.recipientId),
      column((e) => e.row.locationId),
      column((e) => e.row.mailroomId),
      column((e) => e.row.trackingNumber),
      column((e) => e.row.sender),
      column((e) => e.row.senderAddress),
      column((e) => e.row.description),
      column((e) => e.row.courierCompany),
      column((e) => e.row.collectedByStaff),
      column((e) => e.row.collectorName),
      column((e) => e.row.size),
      column((e) => e.row.weight),
      column((e) => e.row.notes),
      column((e) => e.row.status),
      column((e) => e.row.notifiedAt),
      column((e) => e.row.deliveredAt),
      column((e) => e.row.handedOverBy),
      column((e) => (e.photo ? crypto.randomUUID() : null)),
      column((e) => e.photo?.contentType ?? null),
      column((e) => e.photo?.data ?? null),
      column((e) => e.photo?.thumbnail ?? null),
      column((e) => e.photo?.width ?? null),
      column((e) => e.photo?.height ?? null),
      column((e) => e.removePhoto),
      column((e) => e.previousPhotoId),
      history.map((h) => h.id),
      history.map((h) => h.action),
      history.map((h) => h.previousStatus ?? null),
      history.map((h) => h.newStatus ?? null),
      history.map((h) => h.notes ?? null),
    ],
  });
  const byId = new Map(rows.map((r) => [r.id, toRelations(r)]));
  return batch.map((e) => byId.get(e.id));
}

type ReplyRow = {
  id: string;
  organization_id: string;
  recipient_id: string | null;
  location_id: string | null;
  mailroom_id: string | null;
  tracking_number: string | null;
  type: string;
  sender: string | null;
  courier_company: string | null;
  collected_by_staff: string | null;
  collector_name: string | null;
  sender_address: string | null;
  description: string | null;
  size: string | null;
  weight: string | null;
  status: string;
  arrived_at: Date;
  notified_at: Date | null;
  delivered_at: Date | null;
  notes: string | null;
  photo_id: string | null;
  created_by: string | null;
  handed_over_by: string | null;
  created_at: Date;
  updated_at: Date;
  r_id: string | null;
  r_first_name: string | null;
  r_last_name: string | null;
  r_email: string | null;
  r_phone: string | null;
  r_unit: string | null;
  r_department: string | null;
  l_id: string | null;
  l_name: string | null;
  l_mailroom_name: string | null;
  m_id: string | null;
  m_name: string | null;
};

/** The statement's flat row in the shape the list query (and toMailItemDto) uses. */
function toRelations(r: ReplyRow): MailItemWithRelations {
  return {
    item: {
      id: r.id,
      organizationId: r.organization_id,
      recipientId: r.recipient_id,
      locationId: r.location_id,
      mailroomId: r.mailroom_id,
      trackingNumber: r.tracking_number,
      type: r.type,
      sender: r.sender,
      courierCompany: r.courier_company,
      collectedByStaff: r.collected_by_staff,
      collectorName: r.collector_name,
      senderAddress: r.sender_address,
      description: r.description,
      size: r.size,
      weight: r.weight,
      status: r.status,
      arrivedAt: r.arrived_at,
      notifiedAt: r.notified_at,
      deliveredAt: r.delivered_at,
      notes: r.notes,
      photoId: r.photo_id,
      createdBy: r.created_by,
      handedOverBy: r.handed_over_by,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    },
    recipient: r.r_id
      ? {
          id: r.r_id,
          firstName: r.r_first_name!,
          lastName: r.r_last_name!,
          email: r.r_email,
          phone: r.r_phone,
          unit: r.r_unit,
          department: r.r_department,
        }
      : null,
    location: { id: r.l_id, name: r.l_name, mailroomName: r.l_mailroom_name },
    mailroom: r.m_id ? { id: r.m_id, name: r.m_name! } : null,
  } as MailItemWithRelations;
}
