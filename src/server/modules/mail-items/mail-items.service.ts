import type { z } from 'zod';
import {
  OVERDUE_HOURS,
  PACKAGE_LIMIT_MESSAGE,
  PHOTO_REQUIRED_MESSAGE,
  type CreateMailItemBody,
  type MailItem,
  type MailItemHistoryEntry,
  type MailItemListQuery,
  type OrganizationSettings,
  type PendingSummary,
  type UpdateMailItemBody,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { jsonListPage, type ListPage } from '../../http';
import { forgetOrganizationData } from '../../caches';
import { withPgTransaction, type DbOrTx } from '../../db/client';
import { createBatcher } from '../../lib/batcher';
import { withTenants } from '../../db/tenant-scope';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { violatedForeignKey } from '../../lib/pg-errors';
import { iso } from '../../lib/time';
import { decodePhotoData, processPhoto, type ProcessedPhoto } from '../photos/photo-processing';
import { settingsRepository } from '../settings/settings.repository';
import { valueFromList } from '../settings/list-values';
import { mailItemsRepository, type MailItemWithRelations } from './mail-items.repository';
import { EDITED_KEYS, FIELD_KEYS, replyOf, type EditedRow, type ItemFields } from './mail-items.columns';
import {
  applyEdits,
  checkStorage,
  queryableOf,
  readForEdit,
  readWithRelationsForUpdate,
  removeItems,
  runIntakes,
  type Edit,
  type IntakeOutcome,
  type IntakeValues,
  type ItemKey,
  type Queryable,
  type VersionedItem,
} from './mail-items.writes';
import * as transitions from './transitions';
import { writeBlockError } from '../billing/access';
import { checkPackageAllowance } from './usage.repository';

type CreateInput = z.output<typeof CreateMailItemBody>;
type UpdateInput = z.output<typeof UpdateMailItemBody>;
type ListQuery = z.output<typeof MailItemListQuery>;

export const MAIL_ITEM_NOT_FOUND = 'Mail item not found';
/** An edit that finds its item changed meanwhile is worked out again this many times, then locks. */
const OPTIMISTIC_EDIT_ATTEMPTS = 3;
const OVERDUE_MS = OVERDUE_HOURS * 3600_000;
const pick = <T, K extends keyof T>(row: T, keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, row[k]])) as Pick<T, K>;

/** A rule's refusal as the reply it is. */
const refusalError = (r: transitions.Refusal) => new AppError(r.status, r.message, r.code);

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

/**
 * The reply for an item: its columns as the schema has them (times in ISO text), in the
 * contract's order, and what is not a column: photo URLs, whether it is overdue, its relations.
 */
export function toMailItemDto(
  { item, recipient, location, mailroom }: MailItemWithRelations,
  now = Date.now(),
): MailItem {
  return replyOf(item, {
    photoUrl: item.photoId ? `/api/photos/${item.photoId}` : null,
    thumbnailUrl: item.photoId ? `/api/photos/${item.photoId}/thumbnail` : null,
    isOverdue: (item.status === 'pending' || item.status === 'notified') && now - item.arrivedAt.getTime() > OVERDUE_MS,
    recipient: recipient?.id ? recipient : null,
    location:
      location.id && location.name
        ? { id: location.id, name: location.name, mailroomName: location.mailroomName ?? '' }
        : null,
    mailroom: mailroom?.id ? mailroom : null,
  });
}

/** 'YYYY-MM-DD' bounds cover whole days (UTC); date-times are taken as given. */
function dateBound(value: string | undefined, end: boolean): Date | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);
  return new Date(value);
}

const orgsOf = (inputs: { organizationId: string }[]) => inputs.map((i) => i.organizationId);

export function createMailItemsService({ db, caches }: Deps) {
  const pool = db.$client;
  // Concurrent requests share one statement (and one commit) per turn of the event loop; a few
  // batches run at once so reads keep connections of the pool to themselves.
  const batching = { maxSize: 64, maxInFlight: 4 };
  // A batch serves several requests, perhaps of several organizations: it runs scoped to those.
  const intake = createBatcher(
    (batch: IntakeValues[]) => withTenants(orgsOf(batch), () => runIntakes(pool, batch)),
    batching,
  );
  const read = createBatcher((keys: ItemKey[]) => withTenants(orgsOf(keys), () => readForEdit(pool, keys)), batching);
  const write = createBatcher((edits: Edit[]) => withTenants(orgsOf(edits), () => applyEdits(pool, edits)), {
    ...batching,
    keyOf: (e: Edit) => e.id, // two edits of one item go in turn
  });
  /** Decoding and re-encoding is CPU work done before any transaction opens. */
  async function photoFrom(photoData: string | null | undefined): Promise<ProcessedPhoto | undefined> {
    return photoData ? processPhoto(decodePhotoData(photoData)) : undefined;
  }

  async function load(organizationId: string, id: string): Promise<MailItem> {
    const row = await mailItemsRepository.findWithRelations(db, organizationId, id);
    if (!row) throw notFound(MAIL_ITEM_NOT_FOUND);
    return toMailItemDto(row);
  }

  /** Read on every write; cached like the other hot lookups and cleared when an admin changes them. */
  const settingsOf = (organizationId: string) =>
    caches.settings.getOrLoad(organizationId, () => settingsRepository.get(db, organizationId));

  const changed = (organizationId: string) => forgetOrganizationData(caches, organizationId);

  return {
    /**
     * A page of items as its JSON reply, and the total. Desks poll the same lists (Pending
     * Pickups, recent items) far more often than items change, and a busy list's cost is its
     * serialization, so the finished JSON is what the cache keeps.
     */
    async listPage(caller: OrgCaller, q: ListQuery): Promise<ListPage> {
      const filters = {
        statuses: q.status
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        type: q.type,
        recipientId: q.recipientId,
        locationId: q.locationId,
        dateFrom: dateBound(q.dateFrom, false),
        dateTo: dateBound(q.dateTo, true),
        search: q.search || undefined,
      };
      return caches.mailItemLists.getOrLoad(`${caller.organizationId}|${JSON.stringify(q)}`, async () => {
        const { json, total } = await mailItemsRepository.page(
          db,
          caller.organizationId,
          {
            ...filters,
            order: q.order,
            limit: q.limit,
            offset: q.offset,
          },
          q.view,
        );
        return jsonListPage(json, total);
      });
    },

    get: (caller: OrgCaller, id: string) => load(caller.organizationId, id),

    pendingSummary: (caller: OrgCaller): Promise<PendingSummary> =>
      mailItemsRepository.pendingSummary(db, caller.organizationId),

    async history(caller: OrgCaller, id: string): Promise<MailItemHistoryEntry[]> {
      const rows = await mailItemsRepository.history(db, caller.organizationId, id);
      if (rows.length === 0 && !(await mailItemsRepository.findWithRelations(db, caller.organizationId, id))) {
        throw notFound(MAIL_ITEM_NOT_FOUND);
      }
      return rows.map(({ performer, ...r }) => ({
        ...r,
        performedBy: performer?.id ? performer : null,
        createdAt: iso(r.createdAt),
      }));
    },

    /**
     * A new item starts pending; the item, its photo and its history row commit together, in one
     * statement. Organizations with a monthly cap (or on trial) are serialised by a usage lock so
     * the cap is exact; unlimited ones never wait for each other.
     */
    async create(caller: OrgCaller, input: CreateInput): Promise<MailItem> {
      const { organizationId, userId } = caller;
      const settings = await settingsOf(organizationId);
      const type = valueFromList(settings.packageTypes, input.type, 'Unknown package type');
      if (settings.requirePhotoUpload && !input.photoData) throw badRequest(PHOTO_REQUIRED_MESSAGE, 'photo_required');
      const fields = Object.fromEntries(FIELD_KEYS.map((k) => [k, input[k] ?? null])) as ItemFields;
      const { set: state, history, events } = transitions.intake(userId);
      const values: IntakeValues = {
        organizationId,
        userId,
        fields: { ...fields, type },
        state,
        history,
        events,
        photo: await photoFrom(input.photoData),
        refuseCapped: true,
      };
      const result = await writing(async () => {
        const fast = await intake(values);
        return fast.outcome === 'capped' ? intakeWithinCap({ ...values, refuseCapped: false }) : fast;
      });
      if (!result.item) throw storageError(result.outcome);
      changed(organizationId);
      return toMailItemDto(result.item);
    },

    /**
     * Edits fields and/or changes the status. The item is read, the change worked out here, and
     * written in one statement that applies only to the version read; if another change got in
     * between, it is worked out again from the new version (optimistic concurrency).
     */
    async update(caller: OrgCaller, id: string, input: UpdateInput): Promise<MailItem> {
      const { organizationId } = caller;
      const settings = await settingsOf(organizationId);
      const status = input.status ? valueFromList(settings.customStatuses, input.status, 'Unknown status') : undefined;
      const type =
        input.type !== undefined ? valueFromList(settings.packageTypes, input.type, 'Unknown package type') : undefined;
      const photo = await photoFrom(input.photoData);

      const plan = async (before: VersionedItem | undefined, db: Queryable) => {
        if (!before) throw notFound(MAIL_ITEM_NOT_FOUND);
        return planEdit(caller, before, { ...input, type, status }, settings, photo, db);
      };
      let item: MailItemWithRelations | undefined;
      for (let attempt = 1; !item && attempt <= OPTIMISTIC_EDIT_ATTEMPTS; attempt++) {
        const edit = await plan(await read({ organizationId, id }), pool);
        item = await writing(() => write(edit));
      }
      // Lost the race every time (many clerks on one item): wait for the row lock instead.
      item ??= await writing(() =>
        withPgTransaction(pool, async (client) => {
          const [before] = await readForEdit(client, [{ organizationId, id }], true);
          const [edited] = await applyEdits(client, [await plan(before, client)]);
          return edited;
        }),
      );
      if (!item) throw notFound(MAIL_ITEM_NOT_FOUND);
      changed(organizationId);
      return toMailItemDto(item);
    },

    /** Deletes the item (any status), which frees its shelf; its history rows stay, with a 'deleted' row. */
    async delete(caller: OrgCaller, id: string): Promise<void> {
      const { organizationId, userId } = caller;
      await withPgTransaction(pool, async (client) => {
        const before = await readWithRelationsForUpdate(client, organizationId, id);
        if (!before) throw notFound(MAIL_ITEM_NOT_FOUND);
        // The webhook of a deleted item carries the item as it was: the row is gone by then.
        const { history, events } = transitions.remove(before.item, { actor: userId, snapshot: toMailItemDto(before) });
        await removeItems(client, [{ organizationId, id, history, events }]);
      });
      changed(organizationId);
    },
  };

  /** Logs an item for an organization with a monthly cap or on trial: serialised, counted, exact. */
  function intakeWithinCap(values: IntakeValues) {
    return withPgTransaction(pool, async (client) => {
      const usage = await checkPackageAllowance(client, values.organizationId);
      if (usage === 'package_limit') throw new AppError(402, PACKAGE_LIMIT_MESSAGE, 'package_limit');
      if (usage !== 'counted') throw writeBlockError(usage);
      const [result] = await runIntakes(client, [values]);
      return result!;
    });
  }

  /**
   * The whole row as the edit leaves it, and its history rows. Each changed value is checked like
   * at creation; the status's side effects (notifiedAt, deliveredAt, the hand-over) are the server's.
   */
  async function planEdit(
    { organizationId, userId }: OrgCaller,
    before: VersionedItem,
    input: Omit<UpdateInput, 'status'> & { status: string | undefined },
    settings: OrganizationSettings,
    photo: ProcessedPhoto | undefined,
    db: Queryable,
  ): Promise<Edit> {
    const fields: Partial<ItemFields> = {};
    for (const field of FIELD_KEYS) {
      if (input[field] !== undefined) (fields as Record<string, unknown>)[field] = input[field];
    }
    const storageChanged = input.locationId !== undefined || input.mailroomId !== undefined;
    if (input.recipientId || storageChanged) {
      // A new location alone brings its own mailroom; a mailroom alone means the whole mailroom.
      const locationId = input.locationId === undefined ? before.locationId : input.locationId;
      const mailroomId =
        input.locationId !== undefined && input.mailroomId === undefined ? null : (input.mailroomId ?? null);
      const check = await checkStorage(
        db,
        organizationId,
        input.recipientId ?? null,
        storageChanged ? locationId : null,
        storageChanged ? mailroomId : null,
      );
      if (check.outcome !== 'ok') throw storageError(check.outcome);
      if (storageChanged)
        Object.assign(fields, { locationId, mailroomId: locationId ? check.locationMailroomId : mailroomId });
    }
    const change = transitions.edit(
      before,
      { fields, status: input.status, newPhoto: Boolean(photo), removePhoto: Boolean(input.removePhoto) },
      { actor: userId, at: new Date(), allowEditAfterDelivery: settings.allowEditAfterDelivery },
    );
    if (!change.ok) throw refusalError(change);
    return editOf(before, change, { organizationId, userId, photo, removePhoto: Boolean(input.removePhoto) });
  }
}

/** The edit statement's input: the version read with the change applied, and what goes with it. */
function editOf(
  before: VersionedItem,
  { set, history, events }: transitions.Change<Partial<EditedRow>>,
  { organizationId, userId, photo, removePhoto }: Pick<Edit, 'organizationId' | 'userId' | 'photo' | 'removePhoto'>,
): Edit {
  return {
    organizationId,
    userId,
    id: before.id,
    version: before.version,
    row: { ...pick(before, EDITED_KEYS), ...set },
    photo,
    removePhoto,
    previousPhotoId: before.photoId,
    history,
    events,
  };
}

/**
 * The arrival message of an item's intake was accepted (the notification worker, in the
 * transaction that records the message as sent): a still pending item becomes notified, with its
 * history row and its `mail_item.notified` event (transitions.autoNotify). Answers whether it did.
 */
export async function markNotified(
  tx: DbOrTx,
  organizationId: string,
  itemId: string,
  { at, via }: { at: Date; via: 'email' | 'sms' },
): Promise<boolean> {
  const db = queryableOf(tx);
  const [before] = await readForEdit(db, [{ organizationId, id: itemId }], true);
  const change = transitions.autoNotify(before, { via, at });
  if (!change.ok || !before) return false;
  const [written] = await applyEdits(db, [
    editOf(before, change, { organizationId, userId: null, photo: undefined, removePhoto: false }),
  ]);
  return written !== undefined;
}

export type MailItemsService = ReturnType<typeof createMailItemsService>;
