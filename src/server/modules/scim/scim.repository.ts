import { and, asc, count, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recipients, scimGroupMembers, scimGroups, scimRequests, scimTokens, users } from '../../db/schema';

export type ScimTokenRow = typeof scimTokens.$inferSelect;
export type ScimGroupRow = typeof scimGroups.$inferSelect;
export type RecipientRow = typeof recipients.$inferSelect;
export type ScimRequestValues = Omit<typeof scimRequests.$inferInsert, 'id' | 'organizationId' | 'createdAt'>;

/** The unique indexes whose violation is SCIM's `uniqueness` (409). */
export const SCIM_USER_NAME_INDEX = 'recipients_org_scim_user_name_idx';
export const SCIM_EXTERNAL_ID_INDEX = 'recipients_org_feed_external_id_idx';
export const SCIM_GROUP_NAME_INDEX = 'scim_groups_org_display_name_idx';
export const SCIM_GROUP_EXTERNAL_ID_INDEX = 'scim_groups_org_external_id_idx';

/** last_used_at is written at most this often per token (every SCIM call would otherwise write it). */
const LAST_USED_RESOLUTION_MS = 60_000;

const SCIM = 'scim' as const;
const scimUser = (organizationId: string) =>
  and(eq(recipients.organizationId, organizationId), eq(recipients.managedBy, SCIM));

/**
 * SCIM's tokens, groups and memberships, and the reads of SCIM's recipients. Recipients are
 * written by the recipients module alone (its directory writer); this file only reads them.
 */
/** The groups (id and name) a recipient is a member of, with any further conditions on the group. */
const groupsOfMember = (db: DbOrTx, organizationId: string, recipientId: string, ...more: Array<SQL | undefined>) =>
  db
    .select({ id: scimGroups.id, displayName: scimGroups.displayName })
    .from(scimGroupMembers)
    .innerJoin(
      scimGroups,
      and(eq(scimGroups.id, scimGroupMembers.groupId), eq(scimGroups.organizationId, scimGroupMembers.organizationId)),
    )
    .where(
      and(eq(scimGroupMembers.organizationId, organizationId), eq(scimGroupMembers.recipientId, recipientId), ...more),
    );

export const scimRepository = {
  // Tokens ---------------------------------------------------------------------------------------

  async insertToken(
    db: DbOrTx,
    organizationId: string,
    values: { name: string; prefix: string; tokenHash: string; createdBy: string },
  ): Promise<ScimTokenRow> {
    const [row] = await db
      .insert(scimTokens)
      .values({ ...values, organizationId })
      .returning();
    return row!;
  },

  /** Newest first, with the creator's email. */
  listTokens(db: DbOrTx, organizationId: string) {
    return db
      .select({ token: scimTokens, creatorEmail: users.email })
      .from(scimTokens)
      .leftJoin(users, eq(users.id, scimTokens.createdBy))
      .where(eq(scimTokens.organizationId, organizationId))
      .orderBy(sql`${scimTokens.createdAt} desc`, asc(scimTokens.id));
  },

  async findToken(db: DbOrTx, organizationId: string, id: string) {
    const [row] = await db
      .select({ token: scimTokens, creatorEmail: users.email })
      .from(scimTokens)
      .leftJoin(users, eq(users.id, scimTokens.createdBy))
      .where(and(eq(scimTokens.organizationId, organizationId), eq(scimTokens.id, id)));
    return row;
  },

  /** Revokes it unless it already is; undefined when it is not the organization's. */
  async revokeToken(db: DbOrTx, organizationId: string, id: string) {
    const where = and(eq(scimTokens.organizationId, organizationId), eq(scimTokens.id, id));
    const [revoked] = await db
      .update(scimTokens)
      .set({ revokedAt: new Date() })
      .where(and(where, isNull(scimTokens.revokedAt)))
      .returning();
    if (revoked) return { row: revoked, revokedNow: true };
    const [row] = await db.select().from(scimTokens).where(where);
    return row ? { row, revokedNow: false } : undefined;
  },

  /**
   * Platform read (the token names its organization): by the hash's unique index. The caller
   * compares the hash again in constant time; the index lookup itself only finds the candidate.
   */
  async findTokenByHash(db: DbOrTx, tokenHash: string): Promise<ScimTokenRow | undefined> {
    const [row] = await db.select().from(scimTokens).where(eq(scimTokens.tokenHash, tokenHash));
    return row;
  },

  async touchToken(db: DbOrTx, organizationId: string, id: string, now: Date) {
    await db
      .update(scimTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(scimTokens.organizationId, organizationId),
          eq(scimTokens.id, id),
          or(
            isNull(scimTokens.lastUsedAt),
            lt(scimTokens.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS)),
          ),
        ),
      );
  },

  // The request log (every authenticated call) ----------------------------------------------------

  async insertRequest(db: DbOrTx, organizationId: string, values: ScimRequestValues) {
    await db.insert(scimRequests).values({ ...values, organizationId });
  },

  /** A page of the organization's calls, newest first, with the token's name (by scim_requests_org_created_idx). */
  async listRequests(db: DbOrTx, organizationId: string, limit: number, offset: number) {
    const where = eq(scimRequests.organizationId, organizationId);
    const [rows, [total]] = await Promise.all([
      db
        .select({ request: scimRequests, tokenName: scimTokens.name })
        .from(scimRequests)
        .leftJoin(
          scimTokens,
          and(eq(scimTokens.id, scimRequests.tokenId), eq(scimTokens.organizationId, scimRequests.organizationId)),
        )
        .where(where)
        .orderBy(sql`${scimRequests.createdAt} desc`, sql`${scimRequests.id} desc`)
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(scimRequests).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  /** Housekeeping (platform code): calls older than the retention, all organizations. */
  async purgeRequests(db: DbOrTx, before: Date) {
    await db.delete(scimRequests).where(lt(scimRequests.createdAt, before));
  },

  // Users (recipients managed by SCIM): reads only -------------------------------------------------

  async findUser(db: DbOrTx, organizationId: string, id: string, options: { forUpdate?: boolean } = {}) {
    const query = db
      .select()
      .from(recipients)
      .where(and(scimUser(organizationId), eq(recipients.id, id)));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  /** `userName eq`: case-insensitive, by recipients_org_scim_user_name_idx. */
  async findUserByUserName(db: DbOrTx, organizationId: string, userName: string) {
    const [row] = await db
      .select()
      .from(recipients)
      .where(
        and(
          eq(recipients.organizationId, organizationId),
          sql`lower(${recipients.scimUserName}) = lower(${userName})`,
          sql`${recipients.scimUserName} is not null`,
        ),
      );
    return row;
  },

  /** `externalId eq`: by recipients_org_feed_external_id_idx (caseExact, as RFC 7643 says). */
  async findUserByExternalId(db: DbOrTx, organizationId: string, externalId: string) {
    const [row] = await db
      .select()
      .from(recipients)
      .where(
        and(scimUser(organizationId), eq(recipients.externalId, externalId), sql`${recipients.externalId} is not null`),
      );
    return row;
  },

  /**
   * A recipient typed or imported by hand with this email (the oldest): what a SCIM POST adopts
   * instead of creating a duplicate. By recipients_org_email_normalized_idx.
   */
  async findUnmanagedByEmail(db: DbOrTx, organizationId: string, email: string, options: { forUpdate?: boolean } = {}) {
    const query = db
      .select()
      .from(recipients)
      .where(
        and(
          eq(recipients.organizationId, organizationId),
          isNull(recipients.managedBy),
          eq(recipients.emailNormalized, email.toLowerCase()),
        ),
      )
      .orderBy(asc(recipients.createdAt), asc(recipients.id))
      .limit(1);
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  /** A page of the organization's SCIM users by creation, and their total. */
  async listUsers(db: DbOrTx, organizationId: string, offset: number, limit: number) {
    const [total] = await db.select({ n: count() }).from(recipients).where(scimUser(organizationId));
    const rows =
      limit === 0
        ? []
        : await db
            .select()
            .from(recipients)
            .where(scimUser(organizationId))
            .orderBy(asc(recipients.createdAt), asc(recipients.id))
            .limit(limit)
            .offset(offset);
    return { rows, total: total?.n ?? 0 };
  },

  /** Which of these ids are the organization's SCIM users (members must be). */
  async existingUserIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .select({ id: recipients.id })
      .from(recipients)
      .where(and(scimUser(organizationId), inArray(recipients.id, ids)));
    return new Set(rows.map((r) => r.id));
  },

  /** The groups a user is in (their `groups`, read-only in SCIM). */
  async groupsOfUser(db: DbOrTx, organizationId: string, recipientId: string) {
    return groupsOfMember(db, organizationId, recipientId).orderBy(asc(scimGroups.displayName));
  },

  /** The organization's SCIM users among these ids (a group's members being added), locked for the change. */
  async usersByIds(db: DbOrTx, organizationId: string, ids: string[]) {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(recipients)
      .where(and(scimUser(organizationId), inArray(recipients.id, ids)))
      .orderBy(asc(recipients.id))
      .for('update');
  },

  /** Recipients whose department this group set (of these ids, or all), locked for the change. */
  async departmentSetBy(db: DbOrTx, organizationId: string, groupId: string, ids?: string[]) {
    if (ids && ids.length === 0) return [];
    return db
      .select()
      .from(recipients)
      .where(
        and(
          eq(recipients.organizationId, organizationId),
          eq(recipients.departmentGroupId, groupId),
          ids ? inArray(recipients.id, ids) : undefined,
        ),
      )
      .orderBy(asc(recipients.id))
      .for('update');
  },

  /** The department group (first by name) a recipient is a member of, other than `except`. */
  async departmentGroupOf(db: DbOrTx, organizationId: string, recipientId: string, except?: string) {
    const [row] = await groupsOfMember(
      db,
      organizationId,
      recipientId,
      eq(scimGroups.kind, 'department'),
      except ? sql`${scimGroups.id} <> ${except}` : undefined,
    )
      .orderBy(asc(sql`lower(${scimGroups.displayName})`), asc(scimGroups.id))
      .limit(1);
    return row;
  },

  // Groups -----------------------------------------------------------------------------------------

  async insertGroup(
    db: DbOrTx,
    organizationId: string,
    values: { displayName: string; externalId: string | null; kind: 'department' | 'household' },
  ): Promise<ScimGroupRow> {
    const [row] = await db
      .insert(scimGroups)
      .values({ ...values, organizationId })
      .returning();
    return row!;
  },

  async findGroup(db: DbOrTx, organizationId: string, id: string, options: { forUpdate?: boolean } = {}) {
    const query = db
      .select()
      .from(scimGroups)
      .where(and(eq(scimGroups.organizationId, organizationId), eq(scimGroups.id, id)));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  /** `displayName eq`: case-insensitive, by scim_groups_org_display_name_idx. */
  async findGroupByDisplayName(db: DbOrTx, organizationId: string, displayName: string) {
    const [row] = await db
      .select()
      .from(scimGroups)
      .where(
        and(
          eq(scimGroups.organizationId, organizationId),
          sql`lower(${scimGroups.displayName}) = lower(${displayName})`,
        ),
      );
    return row;
  },

  async findGroupByExternalId(db: DbOrTx, organizationId: string, externalId: string) {
    const [row] = await db
      .select()
      .from(scimGroups)
      .where(
        and(
          eq(scimGroups.organizationId, organizationId),
          eq(scimGroups.externalId, externalId),
          sql`${scimGroups.externalId} is not null`,
        ),
      );
    return row;
  },

  async listGroups(db: DbOrTx, organizationId: string, offset: number, limit: number) {
    const [total] = await db
      .select({ n: count() })
      .from(scimGroups)
      .where(eq(scimGroups.organizationId, organizationId));
    const rows =
      limit === 0
        ? []
        : await db
            .select()
            .from(scimGroups)
            .where(eq(scimGroups.organizationId, organizationId))
            .orderBy(asc(scimGroups.createdAt), asc(scimGroups.id))
            .limit(limit)
            .offset(offset);
    return { rows, total: total?.n ?? 0 };
  },

  async updateGroup(
    db: DbOrTx,
    organizationId: string,
    id: string,
    values: Partial<{ displayName: string; externalId: string | null; kind: 'department' | 'household' }>,
  ) {
    const [row] = await db
      .update(scimGroups)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(scimGroups.organizationId, organizationId), eq(scimGroups.id, id)))
      .returning();
    return row;
  },

  async deleteGroup(db: DbOrTx, organizationId: string, id: string) {
    const [row] = await db
      .delete(scimGroups)
      .where(and(eq(scimGroups.organizationId, organizationId), eq(scimGroups.id, id)))
      .returning();
    return row;
  },

  /** Member ids by group (for a page of groups). */
  async membersOf(db: DbOrTx, organizationId: string, groupIds: string[]) {
    if (groupIds.length === 0) return new Map<string, string[]>();
    const rows = await db
      .select({ groupId: scimGroupMembers.groupId, recipientId: scimGroupMembers.recipientId })
      .from(scimGroupMembers)
      .where(and(eq(scimGroupMembers.organizationId, organizationId), inArray(scimGroupMembers.groupId, groupIds)))
      .orderBy(asc(scimGroupMembers.createdAt), asc(scimGroupMembers.recipientId));
    const byGroup = new Map<string, string[]>();
    for (const r of rows) byGroup.set(r.groupId, [...(byGroup.get(r.groupId) ?? []), r.recipientId]);
    return byGroup;
  },

  /** Adds members (already present ones are kept); answers the ids actually added. */
  async addMembers(db: DbOrTx, organizationId: string, groupId: string, recipientIds: string[]): Promise<string[]> {
    if (recipientIds.length === 0) return [];
    const rows = await db
      .insert(scimGroupMembers)
      .values(recipientIds.map((recipientId) => ({ organizationId, groupId, recipientId })))
      .onConflictDoNothing()
      .returning({ recipientId: scimGroupMembers.recipientId });
    return rows.map((r) => r.recipientId);
  },

  /** Removes members (`undefined`: all of them); answers the ids removed. */
  async removeMembers(db: DbOrTx, organizationId: string, groupId: string, recipientIds?: string[]): Promise<string[]> {
    if (recipientIds && recipientIds.length === 0) return [];
    const rows = await db
      .delete(scimGroupMembers)
      .where(
        and(
          eq(scimGroupMembers.organizationId, organizationId),
          eq(scimGroupMembers.groupId, groupId),
          recipientIds ? inArray(scimGroupMembers.recipientId, recipientIds) : undefined,
        ),
      )
      .returning({ recipientId: scimGroupMembers.recipientId });
    return rows.map((r) => r.recipientId);
  },
};
