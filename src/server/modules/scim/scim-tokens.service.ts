import crypto from 'node:crypto';
import type { z } from 'zod';
import {
  SCIM_MESSAGES,
  type CreatedScimToken,
  type ScimRequest,
  type ScimRequestsQuery,
  type ScimToken,
} from '../../../contract';
import type { Deps, OrgCaller } from '../../context';
import type { DbOrTx } from '../../db/client';
import { asPlatform, withTenants } from '../../db/tenant-scope';
import { notFound } from '../../lib/errors';
import * as rateLimiter from '../../lib/rate-limiter';
import { iso, isoOrNull } from '../../lib/time';
import { hashToken } from '../../lib/tokens';
import { auditRepository } from '../audit/audit.repository';
import { logScimTokenRefused } from '../audit/platform-events';
import { scimRepository, type ScimRequestValues, type ScimTokenRow } from './scim.repository';
import { ScimError } from './scim.protocol';

/** Tokens look like 'scim_' + base64url of 32 random bytes; the list shows the first characters. */
const TOKEN_PREFIX = 'scim_';
const DISPLAY_PREFIX_LENGTH = TOKEN_PREFIX.length + 6;
const RATE_WINDOW_SECONDS = 60;

/** Who a SCIM request acts as: the organization its token belongs to, and which token. */
export type ScimCaller = { organizationId: string; tokenId: string; tokenName: string };

function toTokenDto(row: ScimTokenRow, creatorEmail: string | null): ScimToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: iso(row.createdAt),
    createdBy: row.createdBy && creatorEmail ? { id: row.createdBy, email: creatorEmail } : null,
    lastUsedAt: isoOrNull(row.lastUsedAt),
    revokedAt: isoOrNull(row.revokedAt),
  };
}

/** Where a refused request came from, for the platform log. */
export type RequestOrigin = { ip: string; method: string; path: string };

export function createScimTokensService({ db, config, log }: Deps) {
  const audit = (
    tx: DbOrTx,
    caller: OrgCaller,
    action: 'scim_token.created' | 'scim_token.revoked',
    row: ScimTokenRow,
  ) =>
    auditRepository.record(tx, {
      organizationId: caller.organizationId,
      actorId: caller.userId,
      action,
      targetType: 'scim_token',
      targetId: row.id,
      targetLabel: row.name,
      ...(action === 'scim_token.created'
        ? { after: { name: row.name, prefix: row.prefix } }
        : { before: { revokedAt: null }, after: { revokedAt: isoOrNull(row.revokedAt) } }),
    });

  return {
    /** Admins (the route checks): every token, revoked ones too, newest first. */
    async list(caller: OrgCaller): Promise<ScimToken[]> {
      const rows = await scimRepository.listTokens(db, caller.organizationId);
      return rows.map((r) => toTokenDto(r.token, r.creatorEmail));
    },

    /** A new token, answered in clear this once; only its SHA-256 is kept. */
    async create(caller: OrgCaller, name: string): Promise<CreatedScimToken> {
      const token = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
      return db.transaction(async (tx) => {
        const row = await scimRepository.insertToken(tx, caller.organizationId, {
          name,
          prefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
          tokenHash: hashToken(token),
          createdBy: caller.userId,
        });
        await audit(tx, caller, 'scim_token.created', row);
        const found = await scimRepository.findToken(tx, caller.organizationId, row.id);
        return { ...toTokenDto(row, found?.creatorEmail ?? null), token };
      });
    },

    /** Revokes it (idempotent: a revoked token answers as it is, and is audited once). */
    async revoke(caller: OrgCaller, id: string): Promise<ScimToken> {
      return db.transaction(async (tx) => {
        const result = await scimRepository.revokeToken(tx, caller.organizationId, id);
        if (!result) throw notFound(SCIM_MESSAGES.tokenNotFound);
        if (result.revokedNow) await audit(tx, caller, 'scim_token.revoked', result.row);
        const found = await scimRepository.findToken(tx, caller.organizationId, id);
        return toTokenDto(result.row, found?.creatorEmail ?? null);
      });
    },

    /** Admins (the route checks): a page of the organization's SCIM calls, newest first. */
    async requests(
      caller: OrgCaller,
      query: z.output<typeof ScimRequestsQuery>,
    ): Promise<{ items: ScimRequest[]; total: number }> {
      const { rows, total } = await scimRepository.listRequests(db, caller.organizationId, query.limit, query.offset);
      return {
        total,
        items: rows.map(({ request: r, tokenName }) => ({
          id: r.id,
          method: r.method,
          path: r.path,
          filter: r.filter,
          status: r.status,
          resourceId: r.resourceId,
          durationMs: r.durationMs,
          token: r.tokenId && tokenName !== null ? { id: r.tokenId, name: tokenName } : null,
          createdAt: iso(r.createdAt),
        })),
      };
    },

    /**
     * One row of the request log for an authenticated call, after its reply. Never fails the call
     * (it has been answered): a failed write is logged and dropped.
     */
    async recordRequest(caller: ScimCaller, values: Omit<ScimRequestValues, 'tokenId'>): Promise<void> {
      try {
        await withTenants([caller.organizationId], () =>
          scimRepository.insertRequest(db, caller.organizationId, { ...values, tokenId: caller.tokenId }),
        );
      } catch (err) {
        log.warn({ err, organizationId: caller.organizationId }, 'SCIM request not recorded');
      }
    },

    /**
     * The organization a bearer token acts for. Read on every request, never cached, so a
     * revocation refuses the very next call on every instance. The stored hash is found by its
     * unique index and compared again in constant time. A missing, unknown or revoked token answers
     * 401 in SCIM's format and is written to the platform log (within its hourly quota).
     */
    async authenticate(authorization: string | undefined, origin: RequestOrigin): Promise<ScimCaller> {
      const m = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
      const presented = m?.[1];
      const refuse = async (reason: 'missing' | 'unknown' | 'revoked', organizationId?: string) => {
        await asPlatform(() => logScimTokenRefused(db, { reason, ...origin, organizationId }));
        return new ScimError(401, SCIM_MESSAGES.invalidToken);
      };
      if (!presented) throw await refuse('missing');
      const hash = hashToken(presented);
      const row = await asPlatform(() => scimRepository.findTokenByHash(db, hash));
      const same =
        row !== undefined && crypto.timingSafeEqual(Buffer.from(row.tokenHash, 'hex'), Buffer.from(hash, 'hex'));
      if (!row || !same) throw await refuse('unknown');
      if (row.revokedAt) throw await refuse('revoked', row.organizationId);
      await asPlatform(() => scimRepository.touchToken(db, row.organizationId, row.id, new Date()));
      return { organizationId: row.organizationId, tokenId: row.id, tokenName: row.name };
    },

    /** Every SCIM request counts against its organization's SCIM_RATE_LIMIT_PER_MINUTE, on all instances together. */
    async throttle(caller: ScimCaller): Promise<void> {
      const limited = await rateLimiter.hit(
        db,
        `scim:${caller.organizationId}`,
        config.scimRateLimitPerMinute,
        RATE_WINDOW_SECONDS,
      );
      if (!limited.allowed) {
        throw Object.assign(new ScimError(429, SCIM_MESSAGES.rateLimited), {
          retryAfterSeconds: limited.retryAfterSeconds,
        });
      }
    },
  };
}

export type ScimTokensService = ReturnType<typeof createScimTokensService>;
