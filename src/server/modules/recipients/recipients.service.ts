import type { z } from 'zod';
import {
  DIRECTORY_FIELD_LABELS,
  DIRECTORY_OWNED_FIELDS,
  SCIM_MESSAGES,
  isSupportedLanguage,
  type ErrorReply,
  type Recipient,
  type RecipientBody,
  type RecipientImportBody,
  type RecipientImportPreview,
  type RecipientImportResult,
  type RecipientListQuery,
  type RecipientSummary as RecipientSummarySchema,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import { jsonListPage, type ListPage } from '../../http';
import type { DbOrTx } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import { iso } from '../../lib/time';
import { liveChange, publishLive } from '../../lib/live-events';
import {
  checkRow,
  findDuplicates,
  lookupKeys,
  readRecipientsCsv,
  toPreview,
  type CheckedRow,
  type ImportValues,
} from './recipients.import';
import { endPageAccess } from './page-links';
import {
  recipientsRepository,
  type RecipientChanges,
  type RecipientRow,
  type RecipientValues,
} from './recipients.repository';

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
    notifyChannels: r.notifyChannels,
    language: isSupportedLanguage(r.language) ? r.language : null,
    managedBy: r.managedBy ?? null,
    leftAt: r.leftAt ? iso(r.leftAt) : null,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/**
 * 409 for an import (without skipDuplicates) whose rows repeat an email: the reply lists them in
 * `errors`, one per line, besides the message.
 */
class ImportDuplicatesError extends AppError {
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
  if (input.language !== undefined) changes.language = input.language;
  return changes;
}

/**
 * A directory feed writing recipients (the roster, decision 061; SCIM): which feed, in which
 * organization, and the admin who approved the change (null for a scheduled run).
 */
export type FeedCaller = { organizationId: string; feed: 'scim' | 'roster'; userId: string | null };

/** A feed's recipient as it writes it: the import's values and the feed's own id. */
export type FeedValues = ImportValues & { externalId: string };

/** What one feed run changes, applied together or not at all. */
export type FeedChanges = {
  insert: FeedValues[];
  /** A recipient typed by hand with the same email: the feed takes it over (no duplicate). */
  adopt: Array<{ id: string; values: FeedValues }>;
  update: Array<{ id: string; values: FeedValues }>;
  /** Gone from the feed: left_at now, deactivated after the grace period. */
  leave: string[];
};

/**
 * The fields of `changes` a directory feed owns on this recipient that the change would alter (an
 * edit form sending a field unchanged is not refused). Generic over `managedBy`: SCIM's recipients
 * and the roster's are guarded alike.
 */
function ownedFieldsChanged(row: RecipientRow, changes: RecipientChanges): string[] {
  if (!row.managedBy) return [];
  const changed: string[] = [];
  for (const field of DIRECTORY_OWNED_FIELDS) {
    const next = changes[field];
    if (next === undefined) continue;
    if ((row[field] ?? null) !== (next ?? null)) changed.push(field);
  }
  return changed;
}

/**
 * A recipient's change on the caller's transaction, with what every change implies: the
 * deactivation ends their page (issue 41 item 8: sessions and unused links deleted, not suspended,
 * so reactivating opens nothing until they ask for a new link), and the desk hears of it (decision
 * 043) at commit. The one place a recipient row changes, for the desk and the directory feeds.
 */
async function applyChanges(tx: DbOrTx, organizationId: string, id: string, changes: RecipientChanges) {
  const row = await recipientsRepository.update(tx, organizationId, id, changes);
  if (!row) return undefined;
  if (changes.isActive === false) await endPageAccess(tx, organizationId, id);
  await publishLive(tx, liveChange(organizationId, 'recipients', [id]));
  return row;
}

/** The columns a directory feed writes besides the desk's (recipients.repository: DirectoryColumns). */
export type DirectoryRecipientValues = RecipientValues;

/**
 * What a directory feed (SCIM, the roster import) writes, on the feed's own transaction so that
 * its audit entry and bookkeeping commit with the change. The same repository and the same
 * deactivation path as the desk's edits: there is no second writer of recipients, and the feeds
 * have this one entry point (SCIM writes a person at a time, the roster a run at once).
 */
export const directoryRecipients = {
  async create(tx: DbOrTx, organizationId: string, values: DirectoryRecipientValues): Promise<RecipientRow> {
    const row = await recipientsRepository.insert(tx, organizationId, values);
    await publishLive(tx, liveChange(organizationId, 'recipients', [row.id]));
    return row;
  },

  /** Undefined when the recipient is not the organization's. */
  update(tx: DbOrTx, organizationId: string, id: string, changes: RecipientChanges): Promise<RecipientRow | undefined> {
    return applyChanges(tx, organizationId, id, changes);
  },

  /**
   * The feed says the person left: inactive, `leftAt` set (once: a repeated deactivation keeps the
   * first date), their page's sessions ended. Never erased: their waiting items stay at the desk.
   */
  async deactivate(tx: DbOrTx, organizationId: string, row: RecipientRow, at = new Date()) {
    return applyChanges(tx, organizationId, row.id, { isActive: false, leftAt: row.leftAt ?? at });
  },

  /**
   * A whole feed run (the roster's diff) on the feed's transaction, after its import lock:
   * inserts, take-overs, updates (a returning person's `left_at` cleared and reactivated) and
   * leavers marked, announced to the desk once.
   */
  async applyBatch(tx: DbOrTx, caller: FeedCaller, changes: FeedChanges): Promise<void> {
    const { organizationId, feed } = caller;
    const managed = (v: FeedValues) => ({ ...v, managedBy: feed, leftAt: null, isActive: true });
    await recipientsRepository.lockImports(tx, organizationId);
    await recipientsRepository.insertMany(tx, organizationId, changes.insert.map(managed));
    for (const { id, values } of [...changes.adopt, ...changes.update]) {
      await recipientsRepository.update(tx, organizationId, id, managed(values));
    }
    await recipientsRepository.markLeft(tx, organizationId, changes.leave, new Date());
    const touched = changes.insert.length + changes.adopt.length + changes.update.length + changes.leave.length;
    if (touched > 0) await publishLive(tx, liveChange(organizationId, 'recipients'));
  },

  /**
   * Deactivates the feed's recipients who left more than `graceDays` ago, as `deactivate` does one:
   * their page's sessions and links end. Answers how many.
   */
  async deactivateDeparted(tx: DbOrTx, caller: FeedCaller, graceDays: number): Promise<number> {
    const before = new Date(Date.now() - graceDays * 86_400_000);
    const ids = await recipientsRepository.deactivateLeftBefore(tx, caller.organizationId, caller.feed, before);
    for (const id of ids) await endPageAccess(tx, caller.organizationId, id);
    if (ids.length > 0) await publishLive(tx, liveChange(caller.organizationId, 'recipients', ids));
    return ids.length;
  },
};

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
          language: input.language ?? null,
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
      return db.transaction(async (tx) => {
        const current = await recipientsRepository.findById(tx, caller.organizationId, id, { forUpdate: true });
        if (!current) throw notFound(RECIPIENT_NOT_FOUND);
        const owned = ownedFieldsChanged(current, changes);
        if (owned.length > 0) {
          throw new AppError(
            409,
            SCIM_MESSAGES.managedByDirectory(
              current.managedBy!,
              owned.map((f) => DIRECTORY_FIELD_LABELS[f as keyof typeof DIRECTORY_FIELD_LABELS]),
            ),
            'managed_by_directory',
            owned.map((path) => ({ path, message: 'Kept by the directory' })),
          );
        }
        const row = await applyChanges(tx, caller.organizationId, id, changes);
        if (!row) throw notFound(RECIPIENT_NOT_FOUND);
        return toRecipientDto(row);
      });
    },

    /** Admins (the route checks). Mail items keep their history; their recipient becomes empty. */
    async remove(caller: OrgCaller, id: string): Promise<void> {
      await changing(caller, async (tx) => {
        if (!(await recipientsRepository.delete(tx, caller.organizationId, id))) throw notFound(RECIPIENT_NOT_FOUND);
        return { result: undefined, ids: [id] };
      });
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
          // The file's language column, where it has one (decision 066); the roster never writes it.
          importable.map((r) => ({ ...r.data!, language: r.language ?? null })),
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
