import crypto from 'node:crypto';
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { organizationDataVersionSql } from '../../db/data-version';
import { apiKeys, integrations, organizationMembers, users } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import type { ApiKeyPrincipal } from '../../context';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Keys look like 'pk_' + base64url of 32 random bytes; the list shows the first characters. */
const API_KEY_PREFIX = 'pk_';
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
/** last_used_at is written at most this often per key. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function newApiKey(): { key: string; prefix: string; keyHash: string } {
  const key = API_KEY_PREFIX + crypto.randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), keyHash: hashToken(key) };
}

export const apiKeysRepository = {
  async insert(
    db: DbOrTx,
    values: Pick<
      typeof apiKeys.$inferInsert,
      'organizationId' | 'integrationId' | 'name' | 'prefix' | 'keyHash' | 'createdBy'
    >,
  ): Promise<ApiKeyRow> {
    const [row] = await db.insert(apiKeys).values(values).returning();
    return row!;
  },

  async list(db: DbOrTx, organizationId: string, integrationId: string): Promise<ApiKeyRow[]> {
    return db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.integrationId, integrationId)))
      .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  },

  /**
   * Revokes the key (idempotent): the key and whether this call revoked it (false when it already
   * was); undefined when it is not the integration's. Of two concurrent calls, one revokes it.
   */
  async revoke(
    db: DbOrTx,
    organizationId: string,
    integrationId: string,
    id: string,
  ): Promise<{ row: ApiKeyRow; revokedNow: boolean } | undefined> {
    const where = and(
      eq(apiKeys.organizationId, organizationId),
      eq(apiKeys.integrationId, integrationId),
      eq(apiKeys.id, id),
    );
    const [revoked] = await db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(where, isNull(apiKeys.revokedAt)))
      .returning();
    if (revoked) return { row: revoked, revokedNow: true };
    const [row] = await db.select().from(apiKeys).where(where);
    return row ? { row, revokedNow: false } : undefined;
  },

  /**
   * What a presented key may do, in one query: the key, its integration's switch and its
   * creator's account and membership (the key acts as that user, with the member role).
   */
  async findForAuth(db: DbOrTx, keyHash: string) {
    const [row] = await db
      .select({
        id: apiKeys.id,
        organizationId: apiKeys.organizationId,
        integrationId: apiKeys.integrationId,
        revokedAt: apiKeys.revokedAt,
        lastUsedAt: apiKeys.lastUsedAt,
        integrationActive: integrations.isActive,
        user: users,
        creatorRole: organizationMembers.role,
        dataVersion: organizationDataVersionSql(sql`${apiKeys.organizationId}`),
      })
      .from(apiKeys)
      .innerJoin(
        integrations,
        and(eq(integrations.id, apiKeys.integrationId), eq(integrations.organizationId, apiKeys.organizationId)),
      )
      .leftJoin(users, eq(users.id, apiKeys.createdBy))
      .leftJoin(
        organizationMembers,
        and(
          eq(organizationMembers.organizationId, apiKeys.organizationId),
          eq(organizationMembers.userId, apiKeys.createdBy),
        ),
      )
      .where(eq(apiKeys.keyHash, keyHash));
    return row;
  },

  /** Stamps last use unless it was stamped less than a minute ago (by any instance). */
  async touch(db: DbOrTx, id: string, now: Date) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.id, id),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS))),
        ),
      );
  },
};

/**
 * Authenticates API keys: one statement a request, never cached (decision 037), so revoking a
 * key, switching off or deleting its integration and removing its creator from the organization
 * refuse the key's very next request on every instance.
 */
export function createApiKeyAuth(db: Db) {
  return {
    /** The key's principal, or undefined when the key is unknown or may not be used. */
    async authenticate(key: string): Promise<ApiKeyPrincipal | undefined> {
      const row = await apiKeysRepository.findForAuth(db, hashToken(key));
      // Revoked, switched off, or its creator's account or membership gone: refused.
      if (!row || row.revokedAt || !row.integrationActive || !row.user || !row.creatorRole) return undefined;
      const now = Date.now();
      if (now - (row.lastUsedAt?.getTime() ?? 0) >= LAST_USED_RESOLUTION_MS) {
        await apiKeysRepository.touch(db, row.id, new Date(now));
      }
      return {
        apiKeyId: row.id,
        integrationId: row.integrationId,
        organizationId: row.organizationId,
        user: row.user,
        dataVersion: row.dataVersion,
      };
    },
  };
}
