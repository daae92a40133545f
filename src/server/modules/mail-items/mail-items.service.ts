import type { z } from 'zod';
import {
  HANDED_OVER_STATUSES,
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
import { forgetOrganizationData } from '../../caches';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { iso, isoOrNull } from '../../lib/time';
import { locationsRepository } from '../mailrooms/locations.repository';
import { mailroomsRepository } from '../mailrooms/mailrooms.repository';
import { decodePhotoData, processPhoto, type ProcessedPhoto } from '../photos/photo-processing';
import { photosRepository } from '../photos/photos.repository';
import { recipientsRepository } from '../recipients/recipients.repository';
import { settingsRepository } from '../settings/settings.repository';
import { valueFromList } from '../settings/list-values';
import {
  mailItemsRepository,
  type HistoryInsert,
  type MailItemRow,
  type MailItemWithRelations,
} from './mail-items.repository';
import { countAndShelvePackage } from './usage.repository';

type CreateInput = z.output<typeof CreateMailItemBody>;
type UpdateInput = z.output<typeof UpdateMailItemBody>;
type ListQuery = z.output<typeof MailItemListQuery>;

export const MAIL_ITEM_NOT_FOUND = 'Mail item not found';
const OVERDUE_MS = OVERDUE_HOURS * 3600_000;
/** The fields an edit can change besides the status; with allowEditAfterDelivery off they freeze on delivery. */
const EDITABLE_FIELDS = [
  'type',
  'recipientId',
  'locationId',
  'mailroomId',
  'trackingNumber',
  'sender',
  'senderAddress',
  'description',
  'courierCompany',
  'collectedByStaff',
  'collectorName',
  'size',
  'weight',
  'notes',
] as const;

const isHandedOver = (status: string) => (HANDED_OVER_STATUSES as readonly string[]).includes(status);
/** The location an item occupies: none once it has been handed over. */
const occupiedLocation = (item: Pick<MailItemRow, 'status' | 'locationId'>) =>
  isHandedOver(item.status) ? null : item.locationId;

export function toMailItemDto(
  { item, recipient, location, mailroom }: MailItemWithRelations,
  now = Date.now(),
): MailItem {
  return {
    id: item.id,
    organizationId: item.organizationId,
    recipientId: item.recipientId,
    locationId: item.locationId,
    mailroomId: item.mailroomId,
    trackingNumber: item.trackingNumber,
    type: item.type,
    sender: item.sender,
    senderAddress: item.senderAddress,
    courierCompany: item.courierCompany,
    collectedByStaff: item.collectedByStaff,
    collectorName: item.collectorName,
    description: item.description,
    size: item.size,
    weight: item.weight,
    status: item.status,
    arrivedAt: iso(item.arrivedAt),
    notifiedAt: isoOrNull(item.notifiedAt),
    deliveredAt: isoOrNull(item.deliveredAt),
    notes: item.notes,
    photoUrl: item.photoId ? `/api/photos/${item.photoId}` : null,
    thumbnailUrl: item.photoId ? `/api/photos/${item.photoId}/thumbnail` : null,
    createdBy: item.createdBy,
    handedOverBy: item.handedOverBy,
    createdAt: iso(item.createdAt),
    updatedAt: iso(item.updatedAt),
    isOverdue: (item.status === 'pending' || item.status === 'notified') && now - item.arrivedAt.getTime() > OVERDUE_MS,
    recipient: recipient?.id ? recipient : null,
    location:
      location.id && location.name
        ? { id: location.id, name: location.name, mailroomName: location.mailroomName ?? '' }
        : null,
    mailroom: mailroom?.id ? mailroom : null,
  };
}

/** 'YYYY-MM-DD' bounds cover whole days (UTC); date-times are taken as given. */
function dateBound(value: string | undefined, end: boolean): Date | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);
  return new Date(value);
}

export function createMailItemsService({ db, caches }: Deps) {
  /**
   * Resolves the storage choice: a location (its mailroom comes with it) or a whole mailroom.
   * Ids of another organization answer 404 like unknown ones.
   */
  async function resolveStorage(
    tx: DbOrTx,
    organizationId: string,
    locationId: string | null,
    mailroomId: string | null,
  ) {
    if (locationId) {
      const location = await locationsRepository.findById(tx, organizationId, locationId);
      if (!location) throw notFound('Storage location not found');
      if (mailroomId && mailroomId !== location.mailroomId) {
        throw badRequest('The storage location is not in that mailroom', 'storage_mismatch');
      }
      return { locationId, mailroomId: location.mailroomId };
    }
    // A key-share lock keeps the mailroom from being deleted under the new item.
    if (mailroomId && !(await mailroomsRepository.lock(tx, organizationId, mailroomId, 'share'))) {
      throw notFound('Mailroom not found');
    }
    return { locationId: null, mailroomId: mailroomId ?? null };
  }

  async function requireRecipient(tx: DbOrTx, organizationId: string, recipientId: string | null | undefined) {
    if (recipientId && !(await recipientsRepository.findById(tx, organizationId, recipientId))) {
      throw notFound('Recipient not found');
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
    async listJson(caller: OrgCaller, q: ListQuery): Promise<{ json: string; total: number }> {
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
        const [rows, total] = await Promise.all([
          mailItemsRepository.list(db, caller.organizationId, {
            ...filters,
            order: q.order,
            limit: q.limit,
            offset: q.offset,
          }),
          mailItemsRepository.count(db, caller.organizationId, filters),
        ]);
        const now = Date.now();
        return { json: JSON.stringify(rows.map((r) => toMailItemDto(r, now))), total };
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

    /** A new item starts pending; the item, its history row, the shelf count and the month's usage commit together. */
    async create(caller: OrgCaller, input: CreateInput): Promise<MailItem> {
      const { organizationId, userId } = caller;
      const settings = await settingsOf(organizationId);
      const type = valueFromList(settings.packageTypes, input.type, 'Unknown package type');
      if (settings.requirePhotoUpload && !input.photoData) throw badRequest(PHOTO_REQUIRED_MESSAGE, 'photo_required');
      const photo = await photoFrom(input.photoData);

      const id = await db.transaction(async (tx) => {
        await requireRecipient(tx, organizationId, input.recipientId);
        const storage = await resolveStorage(tx, organizationId, input.locationId ?? null, input.mailroomId ?? null);
        const photoId = photo ? await photosRepository.insert(tx, organizationId, userId, photo) : null;
        const item = await mailItemsRepository.insert(tx, {
          organizationId,
          type,
          recipientId: input.recipientId ?? null,
          ...storage,
          trackingNumber: input.trackingNumber ?? null,
          sender: input.sender ?? null,
          senderAddress: input.senderAddress ?? null,
          description: input.description ?? null,
          courierCompany: input.courierCompany ?? null,
          collectedByStaff: input.collectedByStaff ?? null,
          collectorName: input.collectorName ?? null,
          size: input.size ?? null,
          weight: input.weight ?? null,
          notes: input.notes ?? null,
          status: 'pending',
          photoId,
          createdBy: userId,
        });
        await mailItemsRepository.insertHistory(tx, [
          { organizationId, mailItemId: item.id, action: 'created', newStatus: 'pending', performedBy: userId },
        ]);
        const usage = await countAndShelvePackage(tx, organizationId, storage.locationId);
        if (usage === 'package_limit') throw new AppError(402, PACKAGE_LIMIT_MESSAGE, 'package_limit');
        if (usage === 'trial_expired') {
          throw new AppError(402, 'Your free trial has ended. Choose a plan to keep logging mail.', 'trial_expired');
        }
        return item.id;
      });
      changed(organizationId);
      return load(organizationId, id);
    },

    async update(caller: OrgCaller, id: string, input: UpdateInput): Promise<MailItem> {
      const { organizationId, userId } = caller;
      const settings = await settingsOf(organizationId);
      const photo = await photoFrom(input.photoData);

      await db.transaction(async (tx) => {
        const before = await mailItemsRepository.findForUpdate(tx, organizationId, id);
        if (!before) throw notFound(MAIL_ITEM_NOT_FOUND);
        const values = await editedValues(tx, organizationId, before, input, settings);
        const status = input.status
          ? valueFromList(settings.customStatuses, input.status, 'Unknown status')
          : before.status;
        // The collector's name given with the hand-over is part of it, not an edit.
        const edits = EDITABLE_FIELDS.filter(
          (f) =>
            f in values &&
            values[f] !== before[f] &&
            !(f === 'collectorName' && status === 'delivered' && before.status !== 'delivered'),
        );
        if (
          before.status === 'delivered' &&
          !settings.allowEditAfterDelivery &&
          (edits.length > 0 || photo || input.removePhoto)
        ) {
          throw conflict(
            'Delivered items cannot be edited. An admin can allow it in Settings > Customization.',
            'edit_after_delivery',
          );
        }

        const now = new Date();
        if (status !== before.status) Object.assign(values, { status }, statusSideEffects(before, status, userId, now));
        if (photo) values.photoId = await photosRepository.insert(tx, organizationId, userId, photo);
        if (input.removePhoto) values.photoId = null;
        await mailItemsRepository.update(tx, organizationId, id, values);

        if (before.photoId && values.photoId !== undefined && values.photoId !== before.photoId) {
          await photosRepository.delete(tx, organizationId, before.photoId);
        }

        const history: HistoryInsert[] = [];
        if (edits.length > 0 || photo || input.removePhoto) {
          const fields = [...edits, ...(photo ? ['photo'] : []), ...(input.removePhoto ? ['photo removed'] : [])];
          history.push({
            organizationId,
            mailItemId: id,
            action: 'updated',
            notes: `Changed: ${fields.join(', ')}`,
            performedBy: userId,
          });
        }
        if (status !== before.status) {
          history.push({
            organizationId,
            mailItemId: id,
            action: isHandedOver(status) || status === 'notified' ? status : 'status_changed',
            previousStatus: before.status,
            newStatus: status,
            notes: status === 'delivered' && values.collectorName ? `Collected by ${values.collectorName}` : null,
            performedBy: userId,
          });
        }
        await mailItemsRepository.insertHistory(tx, history);

        // The shelf count follows the item: it leaves on hand-over or a move, and returns if
        // un-delivered. Shelf rows are shared by the whole desk, so this runs last, in one statement.
        const from = occupiedLocation(before);
        const to = occupiedLocation({
          status,
          locationId: values.locationId === undefined ? before.locationId : values.locationId,
        });
        if (from !== to) await locationsRepository.moveItem(tx, organizationId, from, to);
      });
      changed(organizationId);
      return load(organizationId, id);
    },

    /** Deletes the item (any status) and frees its shelf; its history rows stay, with a 'deleted' row. */
    async delete(caller: OrgCaller, id: string): Promise<void> {
      const { organizationId, userId } = caller;
      await db.transaction(async (tx) => {
        const item = await mailItemsRepository.findForUpdate(tx, organizationId, id);
        if (!item) throw notFound(MAIL_ITEM_NOT_FOUND);
        await mailItemsRepository.delete(tx, organizationId, id);
        const location = occupiedLocation(item);
        if (location) await locationsRepository.moveItem(tx, organizationId, location, null);
        if (item.photoId) await photosRepository.delete(tx, organizationId, item.photoId);
        await mailItemsRepository.insertHistory(tx, [
          { organizationId, mailItemId: id, action: 'deleted', previousStatus: item.status, performedBy: userId },
        ]);
      });
      changed(organizationId);
    },
  };

  /** The row values an edit sets, each checked like at creation. */
  async function editedValues(
    tx: DbOrTx,
    organizationId: string,
    before: MailItemRow,
    input: UpdateInput,
    settings: OrganizationSettings,
  ): Promise<Partial<MailItemRow>> {
    const values: Partial<MailItemRow> = {};
    for (const field of EDITABLE_FIELDS) {
      if (input[field] !== undefined) (values as Record<string, unknown>)[field] = input[field];
    }
    if (input.type !== undefined)
      values.type = valueFromList(settings.packageTypes, input.type, 'Unknown package type');
    if (input.recipientId !== undefined) await requireRecipient(tx, organizationId, input.recipientId);
    if (input.locationId !== undefined || input.mailroomId !== undefined) {
      const storage = await resolveStorage(
        tx,
        organizationId,
        input.locationId === undefined ? before.locationId : input.locationId,
        input.locationId !== undefined && input.mailroomId === undefined ? null : (input.mailroomId ?? null),
      );
      Object.assign(values, storage);
    }
    return values;
  }
}

/** notifiedAt and deliveredAt are the server's; leaving a handed-over status clears the hand-over. */
function statusSideEffects(before: MailItemRow, status: string, userId: string, now: Date): Partial<MailItemRow> {
  if (status === 'notified') return before.notifiedAt ? {} : { notifiedAt: now };
  if (status === 'delivered') return { deliveredAt: now, handedOverBy: userId };
  if (status === 'pending' || !isHandedOver(status)) {
    return isHandedOver(before.status) ? { deliveredAt: null, handedOverBy: null } : {};
  }
  return {};
}

export type MailItemsService = ReturnType<typeof createMailItemsService>;
