import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { IDEMPOTENCY_KEY_INVALID, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_REUSED } from '../../../contract';
import { AppError, badRequest } from '../../lib/errors';

/**
 * Idempotency keys of the desk's writes (decision 044). A write sent with `Idempotency-Key`
 * stores its answer in the same transaction as the write (mail-items.writes.ts); the same key
 * again answers that stored answer instead of writing twice, even from another instance or while
 * the first is still running (the primary key: the second waits for the first to commit, then
 * reads its answer).
 */

/** How long a key is remembered: the offline queue sends within a day, housekeeping purges after. */
export const IDEMPOTENCY_HOURS = 24;
export const IDEMPOTENCY_CONSTRAINT = 'idempotency_keys_organization_id_key_pk';

/** A write's key and what it asked, so the same key with another request can be refused. */
export type IdempotencyClaim = { key: string; requestHash: string };
/** A write's answer as the reply sends it (and as a replay sends it again). */
export type StoredAnswer = { statusCode: number; body: unknown };
export type Answered = StoredAnswer & { replayed: boolean };

/**
 * The request's key and the hash of what it asks (method, route, its parameters and body), or
 * undefined without the header. A malformed key is a 400: a client that sends one means it to work.
 */
export function idempotencyOf(request: FastifyRequest): IdempotencyClaim | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) {
    throw badRequest(IDEMPOTENCY_KEY_INVALID, 'invalid_idempotency_key');
  }
  const requestHash = crypto
    .createHash('sha256')
    .update(request.method)
    .update('\0')
    .update(request.routeOptions.url ?? request.url)
    .update('\0')
    .update(JSON.stringify(request.params ?? {}))
    .update('\0')
    .update(JSON.stringify(request.body ?? null))
    .digest('hex');
  return { key: header, requestHash };
}

/** Sends an answer; a replayed one as the JSON it was stored as, marked so a client can tell. */
export function sendAnswer(reply: FastifyReply, answer: Answered) {
  if (!answer.replayed) return reply.status(answer.statusCode).send(answer.body as never);
  // The stored JSON as it is: it passed the reply's schema when it was first sent.
  return reply
    .status(answer.statusCode)
    .header('Idempotent-Replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(answer.body) as never);
}

type Db = { query: pg.Pool['query'] } | pg.PoolClient;

export const idempotencyRepository = {
  async find(
    db: Db,
    organizationId: string,
    key: string,
  ): Promise<(StoredAnswer & { requestHash: string }) | undefined> {
    const { rows } = await db.query<{ request_hash: string; status_code: number; response: unknown }>({
      name: 'idempotency_key_find',
      text: `select request_hash, status_code, response from idempotency_keys
             where organization_id = $1 and key = $2 and created_at > now() - make_interval(hours => $3)`,
      values: [organizationId, key, IDEMPOTENCY_HOURS],
    });
    const row = rows[0];
    return row && { requestHash: row.request_hash, statusCode: row.status_code, body: row.response };
  },

  /**
   * Remembers the answer. A key already there (another request with it committed first, or an
   * expired one not yet purged) is a unique violation; the writer's transaction then rolls back.
   * An expired key is replaced first, so it may be used again.
   */
  async remember(db: pg.PoolClient, organizationId: string, claim: IdempotencyClaim, answer: StoredAnswer) {
    await db.query({
      name: 'idempotency_key_forget_expired',
      text: `delete from idempotency_keys
             where organization_id = $1 and key = $2 and created_at <= now() - make_interval(hours => $3)`,
      values: [organizationId, claim.key, IDEMPOTENCY_HOURS],
    });
    await db.query({
      name: 'idempotency_key_remember',
      text: `insert into idempotency_keys (organization_id, key, request_hash, status_code, response)
             values ($1, $2, $3, $4, $5::jsonb)`,
      values: [organizationId, claim.key, claim.requestHash, answer.statusCode, JSON.stringify(answer.body)],
    });
  },

  /** Housekeeping: keys past their day, every organization's (platform code). */
  async purgeExpired(db: Db): Promise<number> {
    const { rowCount } = await db.query({
      text: `delete from idempotency_keys where created_at <= now() - make_interval(hours => $1)`,
      values: [IDEMPOTENCY_HOURS],
    });
    return rowCount ?? 0;
  },
};

/** The stored answer for the same request, or 422 for another request under the same key. */
export function replayOf(stored: StoredAnswer & { requestHash: string }, claim: IdempotencyClaim): Answered {
  if (stored.requestHash !== claim.requestHash)
    throw new AppError(422, IDEMPOTENCY_KEY_REUSED, 'idempotency_key_reused');
  return { statusCode: stored.statusCode, body: stored.body, replayed: true };
}
