import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { IDEMPOTENCY_KEY_INVALID, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_REUSED } from '../../../contract';
import { AppError, badRequest } from '../../lib/errors';
import { authOf } from '../../plugins/session';

/**
 * Idempotency keys of the desk's writes (decision 044). A write sent with `Idempotency-Key`
 * stores its answer in the same transaction as the write (mail-items.writes.ts); the same key
 * again answers that stored answer instead of writing twice, even from another instance or while
 * the first is still running (the primary key: the second waits for the first to commit, then
 * reads its answer). A key is the caller's own (decision 049): a user's, or an API key's, so the
 * same key from another member or integration is a request of its own, never answered with
 * someone else's reply.
 */

/** How long a key is remembered: the offline queue sends within a day, housekeeping purges after. */
export const IDEMPOTENCY_HOURS = 24;
export const IDEMPOTENCY_CONSTRAINT = 'idempotency_keys_organization_id_caller_key_pk';

/**
 * A write's key, who sent it ('user:<id>' or 'api_key:<id>': an API key is not the user who
 * created it) and what it asked, so the same key with another request can be refused.
 */
export type IdempotencyClaim = { caller: string; key: string; requestHash: string };

/**
 * Keys stored before migration 0031 have no caller (''): still replayed to anyone of their
 * organization until they expire, so an outbox retrying across the deploy does not write twice.
 */
const LEGACY_CALLER = '';
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
  const auth = authOf(request);
  const caller = auth.apiKey ? `api_key:${auth.apiKey.id}` : `user:${auth.user.id}`;
  return { caller, key: header, requestHash };
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
    claim: Pick<IdempotencyClaim, 'caller' | 'key'>,
  ): Promise<(StoredAnswer & { requestHash: string }) | undefined> {
    // The caller's own key first, then a key stored before keys had callers.
    const { rows } = await db.query<{ request_hash: string; status_code: number; response: unknown }>({
      name: 'idempotency_key_find',
      text: `select request_hash, status_code, response from idempotency_keys
             where organization_id = $1 and caller in ($2, $5) and key = $3
               and created_at > now() - make_interval(hours => $4)
             order by caller desc limit 1`,
      values: [organizationId, claim.caller, claim.key, IDEMPOTENCY_HOURS, LEGACY_CALLER],
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
             where organization_id = $1 and caller = $2 and key = $3
               and created_at <= now() - make_interval(hours => $4)`,
      values: [organizationId, claim.caller, claim.key, IDEMPOTENCY_HOURS],
    });
    await db.query({
      name: 'idempotency_key_remember',
      text: `insert into idempotency_keys (organization_id, caller, key, request_hash, status_code, response)
             values ($1, $2, $3, $4, $5, $6::jsonb)`,
      values: [
        organizationId,
        claim.caller,
        claim.key,
        claim.requestHash,
        answer.statusCode,
        JSON.stringify(answer.body),
      ],
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
