import type { z } from 'zod';
import {
  LOCATION_NOT_EMPTY,
  MAILROOM_NOT_EMPTY,
  type Location,
  type LocationBody,
  type Mailroom,
  type MailroomBody,
  type UpdateMailroomBody,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import type { DbOrTx } from '../../db/client';
import { conflict, notFound } from '../../lib/errors';
import { definedOnly } from '../../lib/objects';
import { iso } from '../../lib/time';
import { liveChange, publishLive } from '../../lib/live-events';
import { auditRepository, changedViews, type AuditRecord } from '../audit/audit.repository';
import { locationsRepository, type LocationWithMailroom } from './locations.repository';
import { mailroomsRepository, type MailroomRow, type MailroomWithCount } from './mailrooms.repository';

const MAILROOM_NOT_FOUND = 'Mailroom not found';
const LOCATION_NOT_FOUND = 'Storage location not found';

/** Validated input: the contract's body schemas after parsing (defaults applied, text trimmed). */
export type CreateMailroomInput = z.output<typeof MailroomBody>;
export type UpdateMailroomInput = z.output<typeof UpdateMailroomBody>;
export type CreateLocationInput = z.output<typeof LocationBody>;
/** Every field optional: a field left out keeps its value (capacity included, see the routes). */
export type UpdateLocationInput = Partial<CreateLocationInput>;

function toMailroomDto(m: MailroomWithCount): Mailroom {
  return {
    id: m.id,
    organizationId: m.organizationId,
    name: m.name,
    description: m.description,
    isActive: m.isActive,
    locationCount: m.locationCount,
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
  };
}

function toLocationDto(l: LocationWithMailroom): Location {
  return {
    id: l.id,
    organizationId: l.organizationId,
    mailroomId: l.mailroomId,
    mailroomName: l.mailroomName,
    name: l.name,
    type: l.type,
    capacity: l.capacity,
    currentCount: l.currentCount,
    isFull: l.currentCount >= l.capacity,
    isActive: l.isActive,
    notes: l.notes,
    createdAt: iso(l.createdAt),
    updatedAt: iso(l.updatedAt),
  };
}

/** Locks the mailroom against deletion for the rest of the transaction; 404 when it is not the caller's. */
async function requireMailroom(tx: DbOrTx, organizationId: string, mailroomId: string) {
  if (!(await mailroomsRepository.lock(tx, organizationId, mailroomId, 'share'))) throw notFound(MAILROOM_NOT_FOUND);
}

/** A mailroom as its audit entries show it. */
function mailroomView(m: MailroomRow): Record<string, unknown> {
  return { name: m.name, description: m.description, isActive: m.isActive };
}

/** A storage location as its audit entries show it: its mailroom by name. */
function locationView(l: LocationWithMailroom): Record<string, unknown> {
  return {
    name: l.name,
    mailroom: l.mailroomName,
    type: l.type,
    capacity: l.capacity,
    notes: l.notes,
    isActive: l.isActive,
  };
}

type Audited = Pick<AuditRecord, 'action' | 'before' | 'after'> & { id: string; label: string };

/**
 * Records a mailroom or location change of the caller, in the transaction of the change, and
 * tells the live desk (decision 043) at its commit: every change of storage passes here.
 */
async function audit(tx: DbOrTx, caller: OrgCaller, { action, id, label, before, after }: Audited) {
  await publishLive(tx, liveChange(caller.organizationId, 'storage', [id]));
  await auditRepository.record(tx, {
    organizationId: caller.organizationId,
    actorId: caller.userId,
    action,
    targetType: action.startsWith('mailroom.') ? 'mailroom' : 'location',
    targetId: id,
    targetLabel: label,
    before: before ?? null,
    after: after ?? null,
  });
}

export function createMailroomsService({ db }: Deps) {
  async function mailroomDto(organizationId: string, id: string): Promise<Mailroom> {
    const row = await mailroomsRepository.findWithCount(db, organizationId, id);
    if (!row) throw notFound(MAILROOM_NOT_FOUND);
    return toMailroomDto(row);
  }

  return {
    async listMailrooms(caller: OrgCaller): Promise<Mailroom[]> {
      const rows = await mailroomsRepository.list(db, caller.organizationId);
      return rows.map(toMailroomDto);
    },

    async createMailroom(caller: OrgCaller, input: CreateMailroomInput): Promise<Mailroom> {
      const row = await db.transaction(async (tx) => {
        const created = await mailroomsRepository.insert(tx, caller.organizationId, {
          name: input.name,
          description: input.description ?? null,
          isActive: input.isActive ?? true,
        });
        await audit(tx, caller, {
          action: 'mailroom.created',
          id: created.id,
          label: created.name,
          after: mailroomView(created),
        });
        return created;
      });
      return toMailroomDto({ ...row, locationCount: 0 });
    },

    async updateMailroom(caller: OrgCaller, id: string, input: UpdateMailroomInput): Promise<Mailroom> {
      await db.transaction(async (tx) => {
        // Locked so that the audited "before" is the value this update replaces.
        const current = await mailroomsRepository.lock(tx, caller.organizationId, id, 'edit');
        if (!current) throw notFound(MAILROOM_NOT_FOUND);
        const row = await mailroomsRepository.update(
          tx,
          caller.organizationId,
          id,
          definedOnly({ name: input.name, description: input.description, isActive: input.isActive }),
        );
        if (!row) throw notFound(MAILROOM_NOT_FOUND);
        const changes = changedViews(mailroomView(current), mailroomView(row));
        if (changes) await audit(tx, caller, { action: 'mailroom.updated', id, label: row.name, ...changes });
      });
      return mailroomDto(caller.organizationId, id);
    },

    /**
     * Refused (409) while the mailroom has storage locations or holds items not yet delivered or
     * returned. The row stays locked from the check to the delete, so a location or item cannot
     * slip in between.
     */
    async deleteMailroom(caller: OrgCaller, id: string): Promise<void> {
      const { organizationId } = caller;
      await db.transaction(async (tx) => {
        const current = await mailroomsRepository.lock(tx, organizationId, id, 'update');
        if (!current) throw notFound(MAILROOM_NOT_FOUND);
        const locations = await mailroomsRepository.countLocations(tx, organizationId, id);
        const items = await mailroomsRepository.countHeldItems(tx, organizationId, id);
        if (locations > 0 || items > 0) throw conflict(MAILROOM_NOT_EMPTY, 'mailroom_not_empty');
        await mailroomsRepository.delete(tx, organizationId, id);
        await audit(tx, caller, { action: 'mailroom.deleted', id, label: current.name, before: mailroomView(current) });
      });
    },

    async listLocations(caller: OrgCaller, mailroomId?: string): Promise<Location[]> {
      const rows = await locationsRepository.list(db, caller.organizationId, mailroomId);
      return rows.map(toLocationDto);
    },

    async createLocation(caller: OrgCaller, input: CreateLocationInput): Promise<Location> {
      const { organizationId } = caller;
      const location = await db.transaction(async (tx) => {
        await requireMailroom(tx, organizationId, input.mailroomId);
        const row = await locationsRepository.insert(tx, organizationId, {
          mailroomId: input.mailroomId,
          name: input.name,
          type: input.type,
          capacity: input.capacity,
          notes: input.notes ?? null,
          isActive: input.isActive ?? true,
        });
        const created = await locationsRepository.findWithMailroom(tx, organizationId, row.id);
        if (!created) throw notFound(LOCATION_NOT_FOUND);
        await audit(tx, caller, {
          action: 'location.created',
          id: row.id,
          label: row.name,
          after: locationView(created),
        });
        return created;
      });
      return toLocationDto(location);
    },

    /**
     * May move the location to another mailroom of the organization. The capacity may not drop
     * below the items held there (409); the row is locked so intake cannot add one meanwhile.
     */
    async updateLocation(caller: OrgCaller, id: string, input: UpdateLocationInput): Promise<Location> {
      const { organizationId } = caller;
      const location = await db.transaction(async (tx) => {
        const before = await locationsRepository.findForUpdate(tx, organizationId, id);
        if (!before) throw notFound(LOCATION_NOT_FOUND);
        if (input.mailroomId !== undefined && input.mailroomId !== before.mailroomId) {
          await requireMailroom(tx, organizationId, input.mailroomId);
        }
        const held =
          input.capacity === undefined ? 0 : await locationsRepository.countHeldItems(tx, organizationId, id);
        if (input.capacity !== undefined && input.capacity < held) {
          throw conflict(`Capacity cannot be lower than the items stored here (${held})`, 'capacity_below_count');
        }
        await locationsRepository.update(
          tx,
          organizationId,
          id,
          definedOnly({
            mailroomId: input.mailroomId,
            name: input.name,
            type: input.type,
            capacity: input.capacity,
            notes: input.notes,
            isActive: input.isActive,
          }),
        );
        const after = await locationsRepository.findWithMailroom(tx, organizationId, id);
        if (!after) throw notFound(LOCATION_NOT_FOUND);
        const changes = changedViews(locationView(before), locationView(after));
        if (changes) await audit(tx, caller, { action: 'location.updated', id, label: after.name, ...changes });
        return after;
      });
      return toLocationDto(location);
    },

    /**
     * Refused (409) while items not yet delivered or returned are stored there. The location row
     * is locked from the check to the delete, so intake cannot add an item in between; delivered
     * and returned items keep their rows with no location.
     */
    async deleteLocation(caller: OrgCaller, id: string): Promise<void> {
      const { organizationId } = caller;
      await db.transaction(async (tx) => {
        const location = await locationsRepository.findForUpdate(tx, organizationId, id);
        if (!location) throw notFound(LOCATION_NOT_FOUND);
        const held = await locationsRepository.countHeldItems(tx, organizationId, id);
        if (held > 0) throw conflict(LOCATION_NOT_EMPTY, 'location_not_empty');
        await locationsRepository.delete(tx, organizationId, id);
        await audit(tx, caller, {
          action: 'location.deleted',
          id,
          label: location.name,
          before: locationView(location),
        });
      });
    },
  };
}

export type MailroomsService = ReturnType<typeof createMailroomsService>;
