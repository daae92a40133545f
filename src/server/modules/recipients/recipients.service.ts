import type { z } from 'zod';
import type {
  EraseRecipientResult,
  ErrorReply,
  Recipient,
  RecipientBody,
  RecipientImportBody,
  RecipientImportPreview,
  RecipientImportResult,
  RecipientListQuery,
  RecipientPersonalData,
  RecipientSummary as RecipientSummarySchema,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { jsonListPage, type ListPage } from '../../http';
import type { DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import { iso, isoOrNull } from '../../lib/time';
import { liveChange, publishLive } from '../../lib/live-events';
import { auditRepository } from '../audit/audit.repository';
import {
  checkRow,
  findDuplicates,
  lookupKeys,
  readRecipientsCsv,
  toPreview,
  type CheckedRow,
} from './recipients.import';
import {
  erasurePattern,
  isErased,
  mentionsOf,
  personalDataRepository,
  type ErasureCounts,
} from './recipients.personal-data';
import { recipientsRepository, type RecipientChanges, type RecipientRow } from './recipients.repository';
import { expectedPackagesRepository } from '../expected-packages/expected-packages.repository';

export const RECIPIENT_NOT_FOUND = 'Recipient not found';

/** Parsed inputs (the contract's shapes after validation). */
export type RecipientInput = z.output<typeof RecipientBody>;
export type RecipientUpdateInput = Partial<RecipientInput>;
export type RecipientListInput = z.output<typeof RecipientListQuery>;
export type RecipientImportInput = z.output<typeof RecipientImportBody>;
export type RecipientSummary = z.output<typeof RecipientSummarySchema>;

export function toRecipientDto(r: RecipientRow): Recipient {
  return {
    id: r.id,
    organizationId: r.organizationId,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    unit: r.unit,
    department: r.department,
    recipientType: r.recipientType,
    isActive: r.isActive,
    notifyBy: r.notifyBy,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/**
 * 409 for an import (without skipDuplicates) whose rows repeat an email: the reply lists them in
 * `errors`, one per line, besides the message.
 */
export class ImportDuplicatesError extends AppError {
  constructor(errors: NonNullable<ErrorReply['errors']>) {
    const lines = errors.map((e) => e.path.replace(/^line /, ''));
    const shown =
      lines.length > 20 ? `${lines.slice(0, 20).join(', ')} and ${lines.length - 20} more` : lines.join(', ');
    super(
      409,
      `Some rows repeat the email of an existing recipient or an earlier line (line${lines.length > 1 ? 's' : ''} ${shown}). ` +
        'Import with duplicates skipped to leave them out.',
      'duplicate_recipients',
      errors,
    );
  }
}

/** Only the fields that were sent; `undefined` means "leave as it is". */
function changesOf(input: RecipientUpdateInput): RecipientChanges {
  const changes: RecipientChanges = {};
  if (input.firstName !== undefined) changes.firstName = input.firstName;
  if (input.lastName !== undefined) changes.lastName = input.lastName;
  if (input.email !== undefined) changes.email = input.email;
  if (input.phone !== undefined) changes.phone = input.phone;
  if (input.unit !== undefined) changes.unit = input.unit;
  if (input.department !== undefined) changes.department = input.department;
  if (input.recipientType !== undefined) changes.recipientType = input.recipientType;
  if (input.isActive !== undefined) changes.isActive = input.isActive;
  return changes;
}

export function createRecipientsService({ db }: Deps) {
  /** The dashboard's Active Recipients card counts them. */

  async function analyse(tx: DbOrTx, organizationId: string, rows: CheckedRow[]) {
    const { emails, nameUnitKeys } = lookupKeys(rows);
    const existing = await recipientsRepository.findByEmailsOrNameUnitKeys(tx, organizationId, emails, nameUnitKeys);
    return findDuplicates(rows, existing);
  }

  /**
   * A recipient write and its live desk event (decision 043) in one transaction: the event is
   * delivered at commit, and only if it commits.
   */
  function changing<T>(caller: OrgCaller, work: (tx: DbOrTx) => Promise<{ result: T; ids: string[] }>): Promise<T> {
    return db.transaction(async (tx) => {
      const { result, ids } = await work(tx);
      await publishLive(tx, liveChange(caller.organizationId, 'recipients', ids));
      return result;
    });
  }

  return {
    async listPage(caller: OrgCaller, query: RecipientListInput): Promise<ListPage> {
      const { json, total } = await recipientsRepository.listJson(db, caller.organizationId, {
        search: query.search || undefined,
        active: query.active,
        limit: query.limit,
        offset: query.offset,
      });
      return jsonListPage(json, total);
    },

    async summary(caller: OrgCaller): Promise<RecipientSummary> {
      return recipientsRepository.summary(db, caller.organizationId);
    },

    async get(caller: OrgCaller, id: string): Promise<Recipient> {
      const row = await recipientsRepository.findById(db, caller.organizationId, id);
      if (!row) throw notFound(RECIPIENT_NOT_FOUND);
      return toRecipientDto(row);
    },

    async create(caller: OrgCaller, input: RecipientInput): Promise<Recipient> {
      return changing(caller, async (tx) => {
        const row = await recipientsRepository.insert(tx, caller.organizationId, {
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email ?? null,
          phone: input.phone ?? null,
          unit: input.unit ?? null,
          department: input.department ?? null,
          recipientType: input.recipientType,
          isActive: input.isActive ?? true,
        });
        return { result: toRecipientDto(row), ids: [row.id] };
      });
    },

    /** Any subset of fields, e.g. only `{isActive}` to activate or deactivate. */
    async update(caller: OrgCaller, id: string, input: RecipientUpdateInput): Promise<Recipient> {
      const changes = changesOf(input);
      if (Object.keys(changes).length === 0) {
        const row = await recipientsRepository.findById(db, caller.organizationId, id);
        if (!row) throw notFound(RECIPIENT_NOT_FOUND);
        return toRecipientDto(row);
      }
      return changing(caller, async (tx) => {
        const row = await recipientsRepository.update(tx, caller.organizationId, id, changes);
        if (!row) throw notFound(RECIPIENT_NOT_FOUND);
        // Deactivation ends their page (issue 41 item 8): sessions and unused links are deleted,
        // not suspended, so reactivating them opens nothing until they ask for a new link.
        if (changes.isActive === false) await personalDataRepository.endPageAccess(tx, caller.organizationId, id);
        return { result: toRecipientDto(row), ids: [id] };
      });
    },

    /** Admins (the route checks). Mail items keep their history; their recipient becomes empty. */
    async remove(caller: OrgCaller, id: string): Promise<void> {
      await changing(caller, async (tx) => {
        if (!(await recipientsRepository.delete(tx, caller.organizationId, id))) throw notFound(RECIPIENT_NOT_FOUND);
        return { result: undefined, ids: [id] };
      });
    },

    /**
     * Admins (the route checks, and so does this): everything the organization holds about the
     * recipient, as one document (decision 015). The audit entry names the recipient by id only.
     */
    async exportPersonalData(caller: OrgCaller, id: string): Promise<RecipientPersonalData> {
      const { organizationId } = caller;
      return db.transaction(async (tx) => {
        const row = await recipientsRepository.findById(tx, organizationId, id);
        if (!row) throw notFound(RECIPIENT_NOT_FOUND);
        const data = await personalDataRepository.collect(tx, organizationId, id);
        await auditRepository.record(tx, {
          organizationId,
          actorId: caller.userId,
          action: 'recipient.personal_data_exported',
          targetType: 'recipient',
          targetId: id,
          after: {
            mailItems: data.mailItems.length,
            historyEntries: data.history.length,
            notifications: data.notifications.length,
            handovers: data.handovers.length,
          },
        });
        return {
          format: 'pigeonhole.recipient-personal-data/1' as const,
          exportedAt: new Date().toISOString(),
          ...data,
          recipient: { ...toRecipientDto(row), notificationsOptOutAt: isoOrNull(row.notificationsOptOutAt) },
        };
      });
    },

    /**
     * Admins: anonymises the recipient everywhere in one transaction (decision 015) and answers
     * what changed. Idempotent: a second call finds nothing left to change, answers zeros and
     * writes no audit entry (like any change that changes nothing).
     */
    async erasePersonalData(caller: OrgCaller, id: string): Promise<EraseRecipientResult> {
      const { organizationId } = caller;
      const result = await db.transaction(async (tx) => {
        const row = await personalDataRepository.lockRecipient(tx, organizationId, id);
        if (!row) throw notFound(RECIPIENT_NOT_FOUND);
        // Once erased, the stand-in name is nothing to look for in other rows' text.
        const pattern = isErased(row) ? null : erasurePattern(row);
        const items = await personalDataRepository.eraseFromItems(tx, organizationId, id, pattern);
        const historyEntries = await personalDataRepository.eraseFromHistory(tx, organizationId, id, pattern);
        const messages = await personalDataRepository.eraseFromNotifications(tx, organizationId, id, pattern);
        // Then everyone else's items, their history and messages: where the recipient collected
        // a neighbour's parcel or a note names them (their full name, email or phone only).
        const mentions = isErased(row)
          ? null
          : mentionsOf(row, await personalDataRepository.namesakes(tx, organizationId, row));
        const elsewhere = mentions
          ? {
              items: await personalDataRepository.eraseMentionsFromItems(tx, organizationId, id, mentions),
              history: await personalDataRepository.eraseMentionsFromHistory(tx, organizationId, id, mentions),
              messages: await personalDataRepository.eraseMentionsFromNotifications(tx, organizationId, id, mentions),
            }
          : { items: 0, history: 0, messages: 0 };
        const handedOver = await personalDataRepository.eraseFromHandovers(tx, organizationId, id);
        const otherHandovers = mentions
          ? await personalDataRepository.eraseMentionsFromHandovers(tx, organizationId, id, mentions)
          : 0;
        const proxies = await personalDataRepository.deleteProxies(tx, organizationId, id);
        // Off everyone else's list of proxies too (issue 41 item 2).
        const otherProxies = mentions
          ? await personalDataRepository.deleteFromOtherProxies(tx, organizationId, id, mentions)
          : 0;
        // The replies kept for idempotency keys (decision 049): replayed for a day, so scrubbed too.
        const idempotentReplies = await personalDataRepository.eraseFromIdempotentReplies(
          tx,
          organizationId,
          id,
          pattern,
          mentions,
        );
        // The tracking numbers they expected say what they order: gone with the rest (decision 033).
        const expected = await expectedPackagesRepository.deleteAllOf(tx, organizationId, id);
        const pageAccess = await personalDataRepository.endPageAccess(tx, organizationId, id);
        const erased = await personalDataRepository.eraseRecipient(tx, organizationId, id);
        const counts: ErasureCounts = {
          recipient: erased ? 1 : 0,
          mailItems: items.items,
          historyEntries,
          notifications: messages.changed,
          notificationsCancelled: messages.cancelled,
          photosDeleted: items.photos + handedOver.photos,
          otherMailItems: elsewhere.items,
          otherHistoryEntries: elsewhere.history,
          otherNotifications: elsewhere.messages,
          handovers: handedOver.handovers,
          otherHandovers,
          proxies,
          otherProxies,
          idempotentReplies,
          expectedPackages: expected,
          pageAccess,
        };
        if (Object.values(counts).some((n) => n > 0)) {
          await auditRepository.record(tx, {
            organizationId,
            actorId: caller.userId,
            action: 'recipient.erased',
            targetType: 'recipient',
            targetId: id,
            after: counts,
          });
        }
        // The items it changed were announced by the mail item writer (scrubItems), as every write of one.
        await publishLive(tx, liveChange(organizationId, 'recipients', [id]));
        return { recipient: toRecipientDto(erased ?? row), counts };
      });
      return result;
    },

    /** What an import would do, row by row; writes nothing. */
    async previewImport(caller: OrgCaller, input: RecipientImportInput): Promise<RecipientImportPreview> {
      const rows = readRecipientsCsv(input.csv).map(checkRow);
      return toPreview(await analyse(db, caller.organizationId, rows));
    },

    /**
     * Inserts every importable row in one transaction, or nothing. Invalid rows are left out.
     * Duplicates are left out with skipDuplicates; without it, rows that repeat an email
     * (of an existing recipient or an earlier line) refuse the whole import with 409, and rows
     * that only share a name and unit are imported.
     */
    async importCsv(caller: OrgCaller, input: RecipientImportInput): Promise<RecipientImportResult> {
      const rows = readRecipientsCsv(input.csv).map(checkRow);
      const result = await db.transaction(async (tx) => {
        await recipientsRepository.lockImports(tx, caller.organizationId);
        const analysed = await analyse(tx, caller.organizationId, rows);
        const valid = analysed.filter((r) => r.data !== null);
        if (!input.skipDuplicates) {
          const clashes = valid.filter((r) => r.emailClash);
          if (clashes.length > 0) {
            throw new ImportDuplicatesError(
              clashes.map((r) => ({ path: `line ${r.line}`, message: r.duplicate?.reason ?? 'Duplicate email' })),
            );
          }
        }
        const importable = input.skipDuplicates ? valid.filter((r) => r.duplicate === null) : valid;
        const created = await recipientsRepository.insertMany(
          tx,
          caller.organizationId,
          importable.map((r) => r.data!),
        );
        if (created > 0) await publishLive(tx, liveChange(caller.organizationId, 'recipients'));
        return {
          created,
          skippedDuplicates: valid.length - importable.length,
          invalid: analysed.length - valid.length,
        };
      });
      return result;
    },
  };
}

export type RecipientsService = ReturnType<typeof createRecipientsService>;
