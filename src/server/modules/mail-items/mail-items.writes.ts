import crypto from 'node:crypto';
import { sql, type SQLChunk } from 'drizzle-orm';
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { PACKAGE_LIMIT_MESSAGE } from '../../../contract';
import { withPgTransaction, type DbOrTx } from '../../db/client';
import { withTenants } from '../../db/tenant-scope';
import { createBatcher } from '../../lib/batcher';
import { mailItemChanges, publishLiveChanges } from '../../lib/live-events';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { violatedForeignKey, violatedUniqueConstraint } from '../../lib/pg-errors';
import { writeBlockError } from '../organizations/plan-access';
import {
  IDEMPOTENCY_CONSTRAINT,
  idempotencyRepository,
  replayOf,
  type Answered,
  type IdempotencyClaim,
  type StoredAnswer,
} from './idempotency';
import { checkPackageAllowance } from '../organizations/usage.repository';
import { itemFromRow, itemWithRelationsFromRow, type MailItemWithRelations } from './mail-items.columns';
import {
  EDIT,
  INTAKE,
  READ_FOR_EDIT,
  READ_FOR_EDIT_LOCKED,
  READ_LOCKED_WITH_RELATIONS,
  REMOVE,
  STORAGE_CHECK,
  scrubStatement,
  type ItemScrub,
  type Edit,
  type IntakeOutcome,
  type IntakeValues,
  type ItemKey,
  type Recorded,
  type Removal,
  type Statement,
  type StorageOutcome,
  type VersionedItem,
} from './mail-items.statements';

export type {
  Edit,
  IntakeValues,
  ItemKey,
  Recorded,
  StorageOutcome,
  VersionedItem,
  ItemScrub,
} from './mail-items.statements';

/**
 * The front desk's writes, each as ONE prepared statement that checks, writes the items, their
 * photos, their history rows and their notification events (the outbox: the worker turns them
 * into emails, SMS and webhooks), and returns the items with their relations, for a whole batch
 * of requests at once (see lib/batcher.ts). What to write is worked out by the rules of
 * transitions.ts; these statements write exactly that. The statements themselves are in
 * mail-items.statements.ts (their text as it runs in sql/*.sql, decision 056); this file holds the
 * write paths that run them, and announces what each unit of work wrote to the live desk.
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
function queryableOf(tx: DbOrTx): Queryable {
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

/** Runs one of the writer's statements (mail-items.statements.ts) for `batch`, named: prepared once per connection. */
function run<B, R extends pg.QueryResultRow>(db: Queryable, statement: Statement<B, R>, batch: B) {
  return db.query<R>({ name: statement.name, text: statement.text, values: statement.values(batch) });
}

/**
 * A unit of work of the writer: where its statements run, and the items they wrote. Every
 * statement that writes items notes their keys here, and the unit announces them all to the live
 * desk (decision 043) when it ends: inside its transaction (PostgreSQL delivers the message at
 * commit, and only then), or right after an autocommitted batch. No write path announces by
 * hand, so a new one cannot forget to.
 */
export type WriteUnit<D extends Queryable = Queryable> = { db: D; written: ItemKey[] };
const unitOn = <D extends Queryable>(db: D): WriteUnit<D> => ({ db, written: [] });
/** Tells the live desk what the unit wrote, through its own connection (nothing when it wrote nothing). */
const announce = (unit: WriteUnit) => publishLiveChanges(unit.db, mailItemChanges(unit.written));

/**
 * Runs `work` in a transaction the caller holds (a pg client in one, or a Drizzle transaction)
 * and announces what it wrote before the transaction commits.
 */
async function inUnit<D extends Queryable, T>(db: D, work: (unit: WriteUnit<D>) => Promise<T>): Promise<T> {
  const unit = unitOn(db);
  const result = await work(unit);
  await announce(unit);
  return result;
}

export type IntakeResult = { outcome: IntakeOutcome; item?: MailItemWithRelations };

/**
 * Logs items, their photos, their history rows and events, in one statement for the whole
 * batch. Ids are chosen here, so each answer finds its row and an item can name its photo in the
 * same statement (foreign keys are checked at its end).
 */
async function runIntakes(unit: WriteUnit, batch: IntakeValues[]): Promise<IntakeResult[]> {
  const prepared = batch.map((v) => ({ id: crypto.randomUUID(), photoId: v.photo ? crypto.randomUUID() : null, v }));
  const { rows } = await run(unit.db, INTAKE, prepared);
  const byId = new Map(rows.map((r) => [r.input_id, r]));
  for (const p of prepared) {
    if (byId.get(p.id)?.outcome === 'ok') unit.written.push({ organizationId: p.v.organizationId, id: p.id });
  }
  return prepared.map(({ id }) => {
    const row = byId.get(id)!;
    return row.outcome === 'ok' ? { outcome: 'ok', item: itemWithRelationsFromRow(row) } : { outcome: row.outcome };
  });
}

/**
 * The items and their versions, one answer per key (undefined: not the organization's). `lock`
 * (inside a transaction) holds the rows until commit, for an edit that lost the optimistic race
 * too often and must now wait its turn.
 */
async function readForEdit(db: Queryable, keys: ItemKey[], lock = false): Promise<Array<VersionedItem | undefined>> {
  const { rows } = await run(db, lock ? READ_FOR_EDIT_LOCKED : READ_FOR_EDIT, keys);
  const byPosition = new Map(rows.map((r) => [Number(r.n), r]));
  return keys.map((_, i) => {
    const row = byPosition.get(i + 1);
    return row ? { ...itemFromRow(row), version: row.version } : undefined;
  });
}

/** Checks an edit's new recipient or storage before it is applied (only run when they change). */
async function checkStorage(
  db: Queryable,
  organizationId: string,
  recipientId: string | null,
  locationId: string | null,
  mailroomId: string | null,
): Promise<{ outcome: 'ok' | StorageOutcome; locationMailroomId: string | null }> {
  const { rows } = await run(db, STORAGE_CHECK, { organizationId, recipientId, locationId, mailroomId });
  return { outcome: rows[0]!.outcome, locationMailroomId: rows[0]!.location_mailroom_id };
}

/**
 * Applies edits, each to the version it was worked out from, in one statement; one answer per
 * edit, undefined when its item changed (or went) meanwhile. Two edits of one item must not
 * share a batch.
 */
async function applyEdits(unit: WriteUnit, batch: Edit[]): Promise<Array<MailItemWithRelations | undefined>> {
  const prepared = batch.map((e) => ({ ...e, newPhotoId: e.photo ? crypto.randomUUID() : null }));
  const { rows } = await run(unit.db, EDIT, prepared);
  const byId = new Map(rows.map((r) => [r.id as string, itemWithRelationsFromRow(r)]));
  for (const e of batch) if (byId.has(e.id)) unit.written.push({ organizationId: e.organizationId, id: e.id });
  return batch.map((e) => byId.get(e.id));
}

/** The item and its relations, locked until the transaction ends (a delete reads what it deletes). */
async function readWithRelationsForUpdate(
  db: Queryable,
  organizationId: string,
  id: string,
): Promise<MailItemWithRelations | undefined> {
  const { rows } = await run(db, READ_LOCKED_WITH_RELATIONS, { organizationId, id });
  return rows[0] ? itemWithRelationsFromRow(rows[0]) : undefined;
}

/** Deletes items with their photos, writing their history rows and events; answers the ids deleted. */
async function removeItems(unit: WriteUnit, batch: Removal[]): Promise<Set<string>> {
  const { rows } = await run(unit.db, REMOVE, batch);
  const removed = new Set(rows.map((r) => r.id));
  for (const r of batch) if (removed.has(r.id)) unit.written.push({ organizationId: r.organizationId, id: r.id });
  return removed;
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
   * An autocommitted unit (a batch's one statement) and its announcement (decision 043), in one
   * statement after it, awaited in the batch's turn: unawaited, an overloaded instance piled these
   * statements up on the pool without bound (bench:live-streams collapsed to 3 req/s). The
   * announcement never throws: the batch committed, and a failure here must not make the batcher
   * retry it one by one (that would write it twice); a stream that misses it is refreshed at its
   * next reconnect, and its re-check of the session is unaffected.
   */
  async function autocommitted<T>(work: (unit: WriteUnit) => Promise<T>): Promise<T> {
    const unit = unitOn(pool);
    const result = await work(unit);
    try {
      await announce(unit);
    } catch (err) {
      log?.warn({ err }, 'live desk: a mail item change could not be announced');
    }
    return result;
  }

  // A batch serves several requests, perhaps of several organizations: it runs scoped to those.
  const intakeBatch = createBatcher(
    (batch: IntakeValues[]) => withTenants(orgsOf(batch), () => autocommitted((unit) => runIntakes(unit, batch))),
    batching,
  );
  const readBatch = createBatcher(
    (keys: ItemKey[]) => withTenants(orgsOf(keys), () => readForEdit(pool, keys)),
    batching,
  );
  const editBatch = createBatcher(
    (edits: Edit[]) => withTenants(orgsOf(edits), () => autocommitted((unit) => applyEdits(unit, edits))),
    {
      ...batching,
      keyOf: (e: Edit) => e.id, // two edits of one item go in turn
    },
  );
  /**
   * A transaction of its own, scoped to the organization it writes for: what it wrote is
   * announced just before it commits.
   */
  const transaction = <T>(organizationId: string, work: (unit: WriteUnit<pg.PoolClient>) => Promise<T>) =>
    withTenants([organizationId], () => withPgTransaction(pool, (client) => inUnit(client, work)));

  /** Logs an item for an organization with a monthly cap or on trial, in the caller's transaction: counted under the usage lock. */
  async function intakeCounted(unit: WriteUnit<pg.PoolClient>, values: IntakeValues) {
    const usage = await checkPackageAllowance(unit.db, values.organizationId);
    if (usage === 'package_limit') throw new AppError(402, PACKAGE_LIMIT_MESSAGE, 'package_limit');
    if (usage !== 'counted') throw writeBlockError(usage);
    const [result] = await runIntakes(unit, [{ ...values, refuseCapped: false }]);
    return result!;
  }

  /** Logs an item for an organization with a monthly cap or on trial: serialised, counted, exact. */
  function intakeWithinCap(values: IntakeValues) {
    return transaction(values.organizationId, (unit) => intakeCounted(unit, values));
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
    work: (unit: WriteUnit<pg.PoolClient>) => Promise<T>,
    answer: (result: T) => StoredAnswer,
  ): Promise<Answered> {
    const find = () => withTenants([organizationId], () => idempotencyRepository.find(pool, organizationId, claim));
    const stored = await find();
    if (stored) return replayOf(stored, claim);
    try {
      return await writing(() =>
        transaction(organizationId, async (unit) => {
          const stored = answer(await work(unit));
          await idempotencyRepository.remember(unit.db, organizationId, claim, stored);
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
    unit: WriteUnit,
    organizationId: string,
    ids: string[],
    record: (db: Queryable, items: VersionedItem[]) => Promise<P>,
    plan: (before: VersionedItem, proof: P) => Edit,
  ): Promise<{ proof: P; items: MailItemWithRelations[] }> {
    const keys = [...ids].sort().map((id) => ({ organizationId, id }));
    const rows = await readForEdit(unit.db, keys, true);
    const found = rows.map((before) => {
      if (!before) throw notFound(MAIL_ITEM_NOT_FOUND);
      return before;
    });
    const proof = await record(unit.db, found);
    const written = await writing(() =>
      applyEdits(
        unit,
        found.map((before) => plan(before, proof)),
      ),
    );
    // Locked rows cannot have changed since they were read.
    if (written.some((item) => !item)) throw new AppError(500, 'A locked mail item changed during its hand-over');
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
        async (unit) => {
          const [first] = await runIntakes(unit, [{ ...values, refuseCapped: true }]);
          // A capped organization's intake is counted by intakeCounted.
          const result =
            first!.outcome === 'capped' ? await intakeCounted(unit, { ...values, refuseCapped: false }) : first!;
          if (!result.item) throw storageError(result.outcome);
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
        async (unit) => {
          const [before] = await readForEdit(unit.db, [key], true);
          const [edited] = await applyEdits(unit, [await planned(organizationId, before, planner, unit.db)]);
          if (!edited) throw new AppError(500, 'A locked mail item changed during its edit');
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
        transaction(organizationId, async (unit) => {
          const [before] = await readForEdit(unit.db, [key], true);
          const [edited] = await applyEdits(unit, [await planned(organizationId, before, planner, unit.db)]);
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
      return transaction(organizationId, (unit) => handOverIn(unit, organizationId, ids, record, plan));
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
      return remembered(organizationId, claim, (unit) => handOverIn(unit, organizationId, ids, record, plan), answer);
    },

    /** Deletes an item (locked, read with its relations for `plan`), its photo, with what `plan` records. */
    async remove(key: ItemKey, plan: (before: MailItemWithRelations) => Recorded): Promise<void> {
      await transaction(key.organizationId, async (unit) => {
        const before = await readWithRelationsForUpdate(unit.db, key.organizationId, key.id);
        if (!before) throw notFound(MAIL_ITEM_NOT_FOUND);
        await removeItems(unit, [{ ...key, ...plan(before) }]);
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
  return inUnit(queryableOf(tx), async (unit) => {
    const [before] = await readForEdit(unit.db, [key], true);
    const edit = plan(before);
    if (!edit) return undefined;
    const [written] = await applyEdits(unit, [edit]);
    return written;
  });
}

/**
 * Rewrites items' free text for an erasure (decision 015), in the caller's transaction: the
 * items locked, each written (its revision counted up) only when something changes, no history
 * row or event (the erasure scrubs those itself), and announced to the live desk with every other
 * write of the writer. Answers the items changed and the photos deleted.
 */
export async function scrubItems(
  tx: DbOrTx,
  organizationId: string,
  scrub: ItemScrub,
): Promise<{ items: number; photos: number }> {
  const statement = scrubStatement(organizationId, scrub);
  return inUnit(queryableOf(tx), async (unit) => {
    const { rows } = await tx.execute<{ ids: string[]; photos: number }>(statement);
    const { ids, photos: deleted } = rows[0]!;
    unit.written.push(...ids.map((id) => ({ organizationId, id })));
    return { items: ids.length, photos: deleted };
  });
}
