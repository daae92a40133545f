import type { z } from 'zod';
import {
  DELIVERED_BY_HANDOVER_ONLY,
  itemTypeLabel,
  MAX_HOLD_DAYS,
  PHOTO_REQUIRED_MESSAGE,
  REVISION_CONFLICT,
  type CreateMailItemBody,
  type MailItem,
  type MailItemHistoryEntry,
  type MailItemListQuery,
  type NeedsRecipientCount,
  type NeedsRecipientItem,
  type OrganizationSettings,
  type PendingSummary,
  type ResolveRecipientBody,
  type UpdateMailItemBody,
  trackingKey,
} from '../../../contract';
import type { Deps, OrgCaller, RecipientCaller } from '../../context';
import { queueStaffMessage, STAFF_EVENTS } from '../../lib/staff-channel';
import { jsonListPage, type ListPage } from '../../http';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { iso } from '../../lib/time';
import { decodePhotoData, processPhoto, type ProcessedPhoto } from '../photos/photo-processing';
import { settingsRepository } from '../settings/settings.repository';
import { valueFromList } from '../settings/list-values';
import { recipientsRepository } from '../recipients/recipients.repository';
import { expectedPackagesRepository } from '../expected-packages/expected-packages.repository';
import { mailItemsRepository } from './mail-items.repository';
import {
  EDITED_KEYS,
  FIELD_KEYS,
  replyOf,
  type EditedRow,
  type ItemFields,
  type MailItemWithRelations,
} from './mail-items.columns';
import {
  createMailItemWriter,
  editInTransaction,
  MAIL_ITEM_NOT_FOUND,
  type Edit,
  type StorageMove,
  type VersionedItem,
} from './mail-items.writes';
import type { Answered, IdempotencyClaim, StoredAnswer } from './idempotency';
import * as transitions from './transitions';
import { isOverdue } from './overdue';

type CreateInput = z.output<typeof CreateMailItemBody>;
type WithoutRecipientInput = Omit<CreateInput, 'recipientId'>;
type UpdateInput = z.output<typeof UpdateMailItemBody>;
type ListQuery = z.output<typeof MailItemListQuery>;
/** How a write is sent: its Idempotency-Key (decision 044), and for an edit the revision it was made from (If-Match). */
export type WriteOptions = { claim?: IdempotencyClaim; expectedRevision?: number };

/** An edit made from an older revision (decision 044): the service answers 409 with the item as it is now. */
class RevisionMoved extends Error {}

export { MAIL_ITEM_NOT_FOUND } from './mail-items.writes';
const pick = <T, K extends keyof T>(row: T, keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, row[k]])) as Pick<T, K>;

/** 400 for an edit that asks for status delivered: the hand-over is the one way (decision 053). */
const deliveredByHandoverOnly = () => badRequest(DELIVERED_BY_HANDOVER_ONLY, 'delivered_by_handover_only');

/** A rule's refusal as the reply it is. */
export const refusalError = (r: transitions.Refusal) => new AppError(r.status, r.message, r.code);

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
    isOverdue: isOverdue(item, now),
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

export function createMailItemsService({ db, caches, log, publicUrl }: Deps) {
  // Batching, tenant scope, retries and locks are the writer's: the service works out what to write.
  const writer = createMailItemWriter(db.$client, log);

  /**
   * An item waiting for a recipient is told to the staff channel of the organization's Slack
   * (decision 064), after the intake's commit: the writer's transaction stays as it is. Its
   * dedupe key makes a second call for the item queue nothing; a failure to queue it is logged,
   * never the intake's error (the item is saved and listed under Needs a recipient).
   */
  async function tellStaffNeedsRecipient(organizationId: string, item: MailItem) {
    const what = [
      itemTypeLabel(item.type),
      item.sender ? `from ${item.sender}` : null,
      item.trackingNumber ? `(${item.trackingNumber})` : null,
    ]
      .filter(Boolean)
      .join(' ');
    try {
      await queueStaffMessage(db, {
        organizationId,
        event: STAFF_EVENTS.needsRecipient,
        mailItemId: item.id,
        dedupeKey: `staff:needs-recipient:${item.id}`,
        text: `An item needs a recipient: ${what}. Assign it: ${publicUrl().replace(/\/+$/, '')}/needs-recipient`,
      });
    } catch (err) {
      log.warn({ err, mailItemId: item.id }, 'the staff channel message of an item without a recipient was not queued');
    }
  }
  /** Decoding and re-encoding is CPU work done before any transaction opens. */
  async function photoFrom(photoData: string | null | undefined): Promise<ProcessedPhoto | undefined> {
    return photoData ? processPhoto(decodePhotoData(photoData)) : undefined;
  }

  async function load(organizationId: string, id: string): Promise<MailItem> {
    const row = await mailItemsRepository.findWithRelations(db, organizationId, id);
    if (!row) throw notFound(MAIL_ITEM_NOT_FOUND);
    return toMailItemDto(row);
  }

  /**
   * Read on every write, before it writes: cached at the data version the caller read with its
   * session (decision 037), so a settings change on any instance applies to the next write.
   */
  const settingsOf = ({ organizationId, dataVersion }: OrgCaller) =>
    caches.settings.getOrLoad(organizationId, dataVersion, () => settingsRepository.get(db, organizationId));

  /**
   * A new item starts as `start` says (pending, or waiting for its recipient); the item, its photo
   * and its history row commit together, in one statement. Organizations with a monthly cap (or
   * on trial) are serialised by a usage lock so the cap is exact; unlimited ones never wait for
   * each other.
   */
  async function intake(
    caller: OrgCaller,
    input: CreateInput,
    start: ReturnType<typeof transitions.intake>,
    claim?: IdempotencyClaim,
  ): Promise<Answered> {
    const { organizationId, userId } = caller;
    const settings = await settingsOf(caller);
    const type = valueFromList(settings.packageTypes, input.type, 'Unknown package type');
    if (settings.requirePhotoUpload && !input.photoData) throw badRequest(PHOTO_REQUIRED_MESSAGE, 'photo_required');
    const fields = Object.fromEntries(FIELD_KEYS.map((k) => [k, input[k] ?? null])) as ItemFields;
    const values = {
      organizationId,
      userId,
      fields: { ...fields, type },
      state: start.set,
      ifExpected: start.ifExpected,
      history: start.history,
      events: start.events,
      photo: await photoFrom(input.photoData),
    };
    const created = (item: MailItemWithRelations): StoredAnswer => ({ statusCode: 201, body: toMailItemDto(item) });
    if (claim) return writer.intakeOnce(values, claim, created);
    return { ...created(await writer.intake(values)), replayed: false };
  }

  /** An item logged with its recipient says how they were chosen (decision 047). */
  const intakeStart = (caller: OrgCaller, input: CreateInput) =>
    transitions.intake(caller.userId, input.recipientId ? { source: input.recipientSource } : undefined);

  /** 409 with the item as it is now, for an edit made from an older revision. */
  async function revisionConflict(organizationId: string, id: string): Promise<never> {
    const current = await load(organizationId, id);
    throw Object.assign(conflict(REVISION_CONFLICT, 'revision_conflict'), { current });
  }

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
      return caches.mailItemLists.getOrLoad(
        `${caller.organizationId}|${JSON.stringify(q)}`,
        caller.dataVersion,
        async () => {
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
        },
      );
    },

    get: (caller: OrgCaller, id: string) => load(caller.organizationId, id),

    pendingSummary: (caller: OrgCaller): Promise<PendingSummary> =>
      mailItemsRepository.pendingSummary(db, caller.organizationId),

    /** A page of the item's timeline, oldest first, and its total (issue 41, item 7). */
    async history(
      caller: OrgCaller,
      id: string,
      page: { limit: number; offset: number },
    ): Promise<{ items: MailItemHistoryEntry[]; total: number }> {
      const { rows, total } = await mailItemsRepository.history(db, caller.organizationId, id, page.limit, page.offset);
      if (total === 0 && !(await mailItemsRepository.findWithRelations(db, caller.organizationId, id))) {
        throw notFound(MAIL_ITEM_NOT_FOUND);
      }
      const items = rows.map(({ performer, ...r }) => ({
        ...r,
        performedBy: performer?.id ? performer : null,
        createdAt: iso(r.createdAt),
      }));
      return { items, total };
    },

    /**
     * An intake (a new item starts pending) as its answer (201 and the item), or the answer
     * stored for its Idempotency-Key.
     */
    createAnswered: (caller: OrgCaller, input: CreateInput, claim?: IdempotencyClaim): Promise<Answered> =>
      intake(caller, input, intakeStart(caller, input), claim),

    /**
     * Logs an item the desk cannot tell the recipient of (decision 041): checked and written like
     * any intake (photo, storage, the monthly cap), but waiting under Needs a recipient. Answered
     * as for an intake, or with the answer stored for its Idempotency-Key.
     */
    createWithoutRecipientAnswered: async (
      caller: OrgCaller,
      input: WithoutRecipientInput,
      claim?: IdempotencyClaim,
    ): Promise<Answered> => {
      const answered = await intake(
        caller,
        { ...input, recipientId: null },
        transitions.intakeWithoutRecipient(caller.userId),
        claim,
      );
      if (!answered.replayed && answered.statusCode === 201)
        await tellStaffNeedsRecipient(caller.organizationId, answered.body as MailItem);
      return answered;
    },

    /**
     * Gives an item waiting under Needs a recipient its recipient: it becomes pending and its
     * arrival message goes out through the outbox as for an intake. Another organization's
     * recipient or item is not found; an item that has its recipient already is a 409.
     */
    async resolve(
      caller: OrgCaller,
      id: string,
      recipientId: string,
      source?: ResolveRecipientBody['recipientSource'],
    ): Promise<MailItem> {
      const { organizationId, userId } = caller;
      const recipient = await recipientsRepository.findById(db, organizationId, recipientId);
      if (!recipient) throw notFound('Recipient not found');
      const recipientName = `${recipient.firstName} ${recipient.lastName}`.trim();
      const item = await writer.edit(
        { organizationId, id },
        {
          // the writer checks the recipient again in its statement's snapshot (deleted meanwhile: 404)
          move: () => ({ recipientId, locationId: null, mailroomId: null }),
          plan: (before) => {
            const change = transitions.resolve(before, { recipientId, recipientName, actor: userId, source });
            if (!change.ok) throw refusalError(change);
            const edit = editOf(before, change, { organizationId, userId, photo: undefined, removePhoto: false });
            // Marked expected only if the recipient chosen expects its number (the statement checks).
            const key = before.trackingNumber ? trackingKey(before.trackingNumber) : '';
            return key ? { ...edit, expected: { key, note: change.ifExpected } } : edit;
          },
        },
      );
      return toMailItemDto(item);
    },

    /** The items waiting for a recipient, newest first, a page at a time, and how many there are. */
    async needsRecipient(caller: OrgCaller, offset: number): Promise<{ items: NeedsRecipientItem[]; total: number }> {
      const [page, total] = await Promise.all([
        mailItemsRepository.needsRecipientPage(db, caller.organizationId, offset),
        mailItemsRepository.statusTotal(db, caller.organizationId, transitions.NEEDS_RECIPIENT),
      ]);
      // Those who expect each item's number (decision 047): offered to the desk, one probe of the
      // open index per page.
      const keyOf = (n: string | null) => (n ? trackingKey(n) : '');
      const keys = [...new Set(page.map((i) => keyOf(i.trackingNumber)).filter(Boolean))];
      const expecters = await expectedPackagesRepository.expecters(db, caller.organizationId, keys);
      const items = page.map((i) => ({ ...i, expectedBy: expecters.get(keyOf(i.trackingNumber)) ?? [] }));
      return { items, total };
    },

    /** The nav badge, from the kept counts by status. */
    async needsRecipientCount(caller: OrgCaller): Promise<NeedsRecipientCount> {
      return { count: await mailItemsRepository.statusTotal(db, caller.organizationId, transitions.NEEDS_RECIPIENT) };
    },

    /**
     * Edits fields and/or changes the status, answered as the reply. The item is read, the change
     * worked out here, and written in one statement that applies only to the version read; if
     * another change got in between, it is worked out again from the new version (optimistic
     * concurrency). With `expectedRevision` (If-Match) the edit applies only if the
     * item is still at that revision, else 409 with the item as it is now: checked against the
     * row the edit is worked out from, which the writer writes only if unchanged (decision 044).
     * With a claim (Idempotency-Key) the answer is stored with the edit, or replayed.
     */
    async updateAnswered(
      caller: OrgCaller,
      id: string,
      input: UpdateInput,
      { claim, expectedRevision }: WriteOptions = {},
    ): Promise<Answered> {
      const { organizationId } = caller;
      // Delivered is the hand-over's alone (decision 053): refused before anything is read.
      if (input.status !== undefined && transitions.isDeliveredStatus(input.status)) throw deliveredByHandoverOnly();
      const settings = await settingsOf(caller);
      const status = input.status ? valueFromList(settings.customStatuses, input.status, 'Unknown status') : undefined;
      const type =
        input.type !== undefined ? valueFromList(settings.packageTypes, input.type, 'Unknown package type') : undefined;
      const photo = await photoFrom(input.photoData);

      const request = { ...input, type, status };
      const unmoved = (before: VersionedItem) => {
        if (expectedRevision !== undefined && before.revision !== expectedRevision) throw new RevisionMoved();
      };
      const planner = {
        move: (before: VersionedItem) => {
          unmoved(before);
          return storageMove(before, request);
        },
        plan: (before: VersionedItem, checked: { locationMailroomId: string | null } | undefined) =>
          planEdit(caller, before, request, settings, photo, checked),
      };
      const edited = (item: MailItemWithRelations): StoredAnswer => ({ statusCode: 200, body: toMailItemDto(item) });
      try {
        if (claim) return await writer.editOnce({ organizationId, id }, planner, claim, edited);
        return { ...edited(await writer.edit({ organizationId, id }, planner)), replayed: false };
      } catch (err) {
        if (err instanceof RevisionMoved) return revisionConflict(organizationId, id);
        throw err;
      }
    },

    /**
     * A recipient holds one of their waiting items until the end of `until` (a date of the
     * organization's calendar, today to MAX_HOLD_DAYS ahead), or lifts the hold (null): not
     * overdue and no reminder meanwhile (decision 035). Another recipient's item is not found.
     */
    async hold(caller: RecipientCaller, id: string, until: string | null): Promise<MailItem> {
      const { organizationId, recipientId } = caller;
      let ends: Date | null = null;
      if (until) {
        const calendar = await mailItemsRepository.holdCalendar(db, organizationId, validDate(until), {
          id,
          recipientId,
        });
        if (!calendar) throw notFound(MAIL_ITEM_NOT_FOUND);
        if (until < calendar.today)
          throw badRequest('The hold date is in the past. Choose today or a later date.', 'hold_in_past');
        if (until > addDays(calendar.today, MAX_HOLD_DAYS)) {
          throw badRequest(
            `An item can be held for at most ${MAX_HOLD_DAYS} days. Choose an earlier date.`,
            'hold_too_long',
          );
        }
        // Renewing is bounded too (decision 052): the organization's longest hold, from the first.
        if (until > calendar.latest) throw holdLimitReached(calendar.longestHoldDays, calendar.today, calendar.latest);
        ends = calendar.ends;
      }
      const item = await writer.edit(
        { organizationId, id },
        {
          move: () => undefined,
          plan: (before) => {
            if (before.recipientId !== recipientId) throw notFound(MAIL_ITEM_NOT_FOUND);
            const change = transitions.hold(before, ends, { label: until && dayLabel(until) });
            if (!change.ok) throw refusalError(change);
            return editOf(before, change, { organizationId, userId: null, photo: undefined, removePhoto: false });
          },
        },
      );
      return toMailItemDto(item);
    },

    /** Deletes the item (any status), which frees its shelf; its history rows stay, with a 'deleted' row. */
    async delete(caller: OrgCaller, id: string): Promise<void> {
      const { organizationId, userId } = caller;
      // The webhook of a deleted item carries the item as it was: the row is gone by then.
      await writer.remove({ organizationId, id }, (before) =>
        transitions.remove(before.item, { actor: userId, snapshot: toMailItemDto(before) }),
      );
    },
  };
}

type EditInput = Omit<UpdateInput, 'status'> & { status: string | undefined };

/** A calendar date that exists (2026-02-30 does not), or a 400. */
function validDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
    throw badRequest('Choose the date to hold the item until (YYYY-MM-DD)', 'invalid_date');
  }
  return date;
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A hold past the organization's longest (decision 052): how long that is, and either the last
 * day still possible or, once it has passed, that the item should be collected.
 */
function holdLimitReached(longestHoldDays: number, today: string, latest: string) {
  const rule = `The desk holds an item for at most ${longestHoldDays} ${longestHoldDays === 1 ? 'day' : 'days'} in all, counted from the day it was first held.`;
  return badRequest(
    latest < today
      ? `${rule} This item has been held that long already: please collect it.`
      : `${rule} This item can be held until ${dayLabel(latest)} at the latest.`,
    'hold_limit_reached',
  );
}

/** How a hold's date reads in its history row: "Thu, Dec 3". */
const dayLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });

/**
 * The recipient and storage an edit moves the item to, for the writer to check (undefined when it
 * names neither). A new location alone brings its own mailroom; a mailroom alone means the whole
 * mailroom.
 */
function storageMove(before: VersionedItem, input: EditInput): StorageMove | undefined {
  const storageChanged = input.locationId !== undefined || input.mailroomId !== undefined;
  if (!input.recipientId && !storageChanged) return undefined;
  const locationId = input.locationId === undefined ? before.locationId : input.locationId;
  const mailroomId =
    input.locationId !== undefined && input.mailroomId === undefined ? null : (input.mailroomId ?? null);
  return {
    recipientId: input.recipientId ?? null,
    locationId: storageChanged ? locationId : null,
    mailroomId: storageChanged ? mailroomId : null,
  };
}

/**
 * The whole row as the edit leaves it, and its history rows. Each changed value is checked like
 * at creation (the storage by the writer, `checked`); the status's side effects (notifiedAt,
 * deliveredAt, the hand-over) are the server's.
 */
function planEdit(
  { organizationId, userId }: OrgCaller,
  before: VersionedItem,
  input: EditInput,
  settings: OrganizationSettings,
  photo: ProcessedPhoto | undefined,
  checked: { locationMailroomId: string | null } | undefined,
): Edit {
  const fields: Partial<ItemFields> = {};
  for (const field of FIELD_KEYS) {
    if (input[field] !== undefined) (fields as Record<string, unknown>)[field] = input[field];
  }
  const move = storageMove(before, input);
  if (checked && move && (input.locationId !== undefined || input.mailroomId !== undefined)) {
    const { locationId, mailroomId } = move;
    Object.assign(fields, { locationId, mailroomId: locationId ? checked.locationMailroomId : mailroomId });
  }
  const change = transitions.edit(
    before,
    { fields, status: input.status, newPhoto: Boolean(photo), removePhoto: Boolean(input.removePhoto) },
    { actor: userId, at: new Date(), allowEditAfterDelivery: settings.allowEditAfterDelivery },
  );
  if (!change.ok) throw refusalError(change);
  return editOf(before, change, { organizationId, userId, photo, removePhoto: Boolean(input.removePhoto) });
}

/** The edit statement's input: the version read with the change applied, and what goes with it. */
export function editOf(
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
  const written = await editInTransaction(tx, { organizationId, id: itemId }, (before) => {
    const change = transitions.autoNotify(before, { via, at });
    if (!change.ok || !before) return undefined;
    return editOf(before, change, { organizationId, userId: null, photo: undefined, removePhoto: false });
  });
  return written !== undefined;
}

export type MailItemsService = ReturnType<typeof createMailItemsService>;
