import { and, asc, count, eq, inArray, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { RECIPIENT_SEARCH_SQL, organizationSettings, recipients } from '../../db/schema';
import { escapeLike } from '../../lib/like';
import { jsonArray, rowJson } from '../../db/json-reply';
import { isPreparedPageSize, pageClause, queryPage } from '../../db/prepared';
import { Recipient } from '../../../contract';

/** A recipient as the API replies it, in JSON built by PostgreSQL (the contract's keys, in order). */
const RECIPIENT_REPLY_JSON = rowJson(recipients, 'r', Object.keys(Recipient.shape));

export type RecipientRow = typeof recipients.$inferSelect;
/** The columns a recipient is written with; the organization comes separately. */
export type RecipientValues = Omit<
  typeof recipients.$inferInsert,
  'id' | 'organizationId' | 'createdAt' | 'updatedAt' | 'notificationsOptOutAt' | 'pickupCode' | 'notifyChannels'
>;
/** The columns a directory feed (SCIM, the roster) writes; a hand import leaves them unset. */
export type DirectoryColumns =
  'managedBy' | 'externalId' | 'leftAt' | 'preferredLanguage' | 'scimUserName' | 'departmentGroupId';
export type RecipientChanges = Partial<RecipientValues>;
export type RecipientListFilter = { search?: string; active?: boolean; limit: number; offset: number };
/** What duplicate detection needs of an existing recipient. */
export type RecipientKeyRow = Pick<RecipientRow, 'id' | 'firstName' | 'lastName' | 'email' | 'unit'>;

/** The same key in SQL and in JS: first name, last name and unit, case-insensitive. */
const NAME_UNIT_KEY_SQL = sql`lower(${recipients.firstName}) || chr(31) || lower(${recipients.lastName}) || chr(31) || lower(coalesce(${recipients.unit}, ''))`;
export const nameUnitKey = (firstName: string, lastName: string, unit: string | null | undefined) =>
  `${firstName.toLowerCase()}\u001f${lastName.toLowerCase()}\u001f${(unit ?? '').toLowerCase()}`;

/** Inserted in chunks so a 5,000-row import stays well under PostgreSQL's parameter limit. */
const INSERT_CHUNK = 1000;

/** The list's filter. A search uses exactly the indexed expression, so recipients_search_trgm_idx serves it. */
export function recipientsWhere(
  organizationId: string | SQLWrapper,
  filter: Pick<RecipientListFilter, 'search' | 'active'>,
) {
  const conditions: SQL[] = [eq(recipients.organizationId, organizationId)];
  if (filter.active !== undefined) conditions.push(eq(recipients.isActive, filter.active));
  if (filter.search) {
    conditions.push(sql`${RECIPIENT_SEARCH_SQL} like '%' || lower(${escapeLike(filter.search)}) || '%'`);
  }
  return and(...conditions);
}

export const recipientsRepository = {
  /**
   * A page ordered by last name, first name, id, as its JSON reply (built by PostgreSQL: the
   * contract's keys, see db/json-reply.ts), and the total of the filter before paging, in one
   * statement.
   */
  async listJson(db: DbOrTx, organizationId: string, filter: RecipientListFilter) {
    const statement = (organization: string | SQLWrapper, offset: number | SQLWrapper) => {
      const where = recipientsWhere(organization, filter);
      const sorted = db
        .select()
        .from(recipients)
        .where(where)
        .orderBy(asc(recipients.lastName), asc(recipients.firstName), asc(recipients.id));
      const total = db
        .select({ total: sql<number>`count(*)::int` })
        .from(recipients)
        .where(where);
      return sql`
      select ${sql.raw(jsonArray(RECIPIENT_REPLY_JSON, 'r.last_name, r.first_name, r.id'))} as body, (${total}) as total
      from (${sorted}${pageClause({ limit: filter.limit, offset })}) r`;
    };
    // prepared and built once per shape, unless a search (whose best plan depends on the words) is in it
    const prepare = !filter.search && isPreparedPageSize(filter.limit);
    const [row] = await queryPage<{ body: string; total: number }>(
      db,
      prepare ? ['recipients.page', filter.active ?? 'all', filter.limit].join(' ') : undefined,
      { organizationId, offset: filter.offset },
      statement,
    );
    const { body, total: n } = row!;
    return { json: body, total: n };
  },

  async summary(db: DbOrTx, organizationId: string): Promise<{ total: number; active: number }> {
    const [row] = await db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${recipients.isActive})::int`,
      })
      .from(recipients)
      .where(eq(recipients.organizationId, organizationId));
    return { total: row?.total ?? 0, active: row?.active ?? 0 };
  },

  /** `forUpdate`: locked for the caller's transaction (an edit checked against the row as it is). */
  async findById(
    db: DbOrTx,
    organizationId: string,
    id: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<RecipientRow | undefined> {
    const query = db
      .select()
      .from(recipients)
      .where(and(eq(recipients.organizationId, organizationId), eq(recipients.id, id)));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  async insert(db: DbOrTx, organizationId: string, values: RecipientValues): Promise<RecipientRow> {
    const [row] = await db
      .insert(recipients)
      .values({ ...values, organizationId })
      .returning();
    return row!;
  },

  /** Inserts every row (in chunks, on the caller's transaction); answers how many were written. */
  async insertMany(db: DbOrTx, organizationId: string, rows: RecipientValues[]): Promise<number> {
    let written = 0;
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK).map((values) => ({ ...values, organizationId }));
      const inserted = await db.insert(recipients).values(chunk).returning({ id: recipients.id });
      written += inserted.length;
    }
    return written;
  },

  async update(
    db: DbOrTx,
    organizationId: string,
    id: string,
    changes: RecipientChanges,
  ): Promise<RecipientRow | undefined> {
    const [row] = await db
      .update(recipients)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(recipients.organizationId, organizationId), eq(recipients.id, id)))
      .returning();
    return row;
  },

  /** Answers whether a row was deleted. Mail items keep their history (recipient_id becomes null). */
  async delete(db: DbOrTx, organizationId: string, id: string): Promise<boolean> {
    const deleted = await db
      .delete(recipients)
      .where(and(eq(recipients.organizationId, organizationId), eq(recipients.id, id)))
      .returning({ id: recipients.id });
    return deleted.length > 0;
  },

  /**
   * The organization's recipients that share an email (case-insensitive) or a name-and-unit key
   * (see `nameUnitKey`) with the given ones: the candidates an import could duplicate.
   */
  async findByEmailsOrNameUnitKeys(
    db: DbOrTx,
    organizationId: string,
    emails: string[],
    nameUnitKeys: string[],
  ): Promise<RecipientKeyRow[]> {
    if (emails.length === 0 && nameUnitKeys.length === 0) return [];
    const matches: SQL[] = [];
    if (emails.length > 0) matches.push(inArray(sql`lower(${recipients.email})`, emails));
    if (nameUnitKeys.length > 0) matches.push(inArray(NAME_UNIT_KEY_SQL, nameUnitKeys));
    return db
      .select({
        id: recipients.id,
        firstName: recipients.firstName,
        lastName: recipients.lastName,
        email: recipients.email,
        unit: recipients.unit,
      })
      .from(recipients)
      .where(and(eq(recipients.organizationId, organizationId), sql`(${sql.join(matches, sql` or `)})`))
      .orderBy(asc(recipients.createdAt), asc(recipients.id));
  },

  /** A directory feed's recipients (issue 43): what its next run is diffed against. */
  async listManaged(db: DbOrTx, organizationId: string, feed: 'scim' | 'roster') {
    return db
      .select({
        id: recipients.id,
        externalId: recipients.externalId,
        firstName: recipients.firstName,
        lastName: recipients.lastName,
        email: recipients.email,
        phone: recipients.phone,
        unit: recipients.unit,
        department: recipients.department,
        recipientType: recipients.recipientType,
        isActive: recipients.isActive,
        leftAt: recipients.leftAt,
      })
      .from(recipients)
      .where(and(eq(recipients.organizationId, organizationId), eq(recipients.managedBy, feed)));
  },

  /** Recipients with one of these emails (lower case), with the feed that keeps them (null: by hand). */
  async findByEmails(db: DbOrTx, organizationId: string, emails: string[]) {
    if (emails.length === 0) return [];
    return db
      .select({ id: recipients.id, email: recipients.email, managedBy: recipients.managedBy })
      .from(recipients)
      .where(and(eq(recipients.organizationId, organizationId), inArray(sql`lower(${recipients.email})`, emails)))
      .orderBy(asc(recipients.createdAt), asc(recipients.id));
  },

  /** The feed says they left: the desk shows "left" from now; deactivated after the grace period. */
  async markLeft(db: DbOrTx, organizationId: string, ids: string[], at: Date): Promise<number> {
    let marked = 0;
    for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
      const rows = await db
        .update(recipients)
        .set({ leftAt: at, updatedAt: at })
        .where(
          and(
            eq(recipients.organizationId, organizationId),
            inArray(recipients.id, ids.slice(i, i + INSERT_CHUNK)),
            isNull(recipients.leftAt),
          ),
        )
        .returning({ id: recipients.id });
      marked += rows.length;
    }
    return marked;
  },

  /** Deactivates the feed's recipients who left before `before`; answers their ids. */
  async deactivateLeftBefore(db: DbOrTx, organizationId: string, feed: 'scim' | 'roster', before: Date) {
    const rows = await db
      .update(recipients)
      .set({ isActive: false, updatedAt: new Date() })
      .where(
        and(
          eq(recipients.organizationId, organizationId),
          eq(recipients.managedBy, feed),
          eq(recipients.isActive, true),
          sql`${recipients.leftAt} < ${before.toISOString()}`,
        ),
      )
      .returning({ id: recipients.id });
    return rows.map((r) => r.id);
  },

  /** Serializes imports into one organization for the rest of the transaction (a double-click imports once). */
  async lockImports(tx: DbOrTx, organizationId: string) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('recipients-import'), hashtext(${organizationId}))`);
  },

  /**
   * No more notifications to this recipient (the unsubscribe link). By id alone, the one
   * exception to "organization first": the link's signed token names only the recipient, and
   * links already sent must keep working. A recipient already opted out keeps the first date.
   */
  /**
   * What a recipient reads in, found by id alone (the unsubscribe link names no organization):
   * their language, SCIM's tag, their organization's default (decision 066).
   */
  async languageSources(db: DbOrTx, recipientId: string) {
    const [row] = await db
      .select({
        language: recipients.language,
        preferredLanguage: recipients.preferredLanguage,
        organizationDefault: organizationSettings.defaultLanguage,
      })
      .from(recipients)
      .leftJoin(organizationSettings, eq(organizationSettings.organizationId, recipients.organizationId))
      .where(eq(recipients.id, recipientId));
    return row;
  },

  async optOutOfNotifications(db: DbOrTx, recipientId: string): Promise<void> {
    await db
      .update(recipients)
      .set({ notificationsOptOutAt: new Date(), updatedAt: new Date() })
      .where(and(eq(recipients.id, recipientId), isNull(recipients.notificationsOptOutAt)));
  },
};
