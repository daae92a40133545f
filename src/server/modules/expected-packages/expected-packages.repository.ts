import { and, asc, count, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { EXPECTED_PACKAGE_DAYS, type ExpectedBy, type ExpectedPackage } from '../../../contract';
import type { DbOrTx } from '../../db/client';
import { expectedPackages, recipients } from '../../db/schema';

const e = expectedPackages;
const ofRecipient = (organizationId: string, recipientId: string) =>
  and(eq(e.organizationId, organizationId), eq(e.recipientId, recipientId));
/** Since when an expected package still counts: older open ones no longer match (decision 033). */
const since = sql`now() - make_interval(days => ${EXPECTED_PACKAGE_DAYS})`;
const open = and(isNull(e.matchedAt), gt(e.createdAt, since));

const REPLY = {
  id: e.id,
  trackingNumber: e.trackingNumber,
  carrier: e.carrier,
  label: e.label,
  createdAt: e.createdAt,
  matchedAt: e.matchedAt,
};
const toReply = (
  row: { createdAt: Date; matchedAt: Date | null } & Omit<ExpectedPackage, 'createdAt' | 'matchedAt'>,
) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  matchedAt: row.matchedAt?.toISOString() ?? null,
});

export type NewExpectedPackage = { trackingNumber: string; matchKey: string; carrier: string | null };

/** Tracking numbers recipients expect (decision 033); every call names the organization. */
export const expectedPackagesRepository = {
  /** The recipient's open ones and those that arrived in the last EXPECTED_PACKAGE_DAYS, newest first. */
  async list(db: DbOrTx, organizationId: string, recipientId: string): Promise<ExpectedPackage[]> {
    const rows = await db
      .select(REPLY)
      .from(e)
      .where(and(ofRecipient(organizationId, recipientId), or(open, gt(e.matchedAt, since))))
      .orderBy(desc(e.createdAt), desc(e.id));
    return rows.map(toReply);
  },

  async countOpen(db: DbOrTx, organizationId: string, recipientId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(e)
      .where(and(ofRecipient(organizationId, recipientId), open));
    return row?.n ?? 0;
  },

  /**
   * Drops open ones of these keys that have passed EXPECTED_PACKAGE_DAYS (they no longer match),
   * so a stale registration never blocks someone registering the number now.
   */
  async dropStale(db: DbOrTx, organizationId: string, keys: string[]): Promise<void> {
    await db
      .delete(e)
      .where(
        and(
          eq(e.organizationId, organizationId),
          inArray(e.matchKey, keys),
          isNull(e.matchedAt),
          lt(e.createdAt, since),
        ),
      );
  },

  /** Which of these keys the recipient already expects (open). */
  async mine(db: DbOrTx, organizationId: string, recipientId: string, keys: string[]): Promise<Set<string>> {
    const rows = await db
      .select({ matchKey: e.matchKey })
      .from(e)
      .where(and(ofRecipient(organizationId, recipientId), inArray(e.matchKey, keys), isNull(e.matchedAt)));
    return new Set(rows.map((r) => r.matchKey));
  },

  async insert(
    db: DbOrTx,
    organizationId: string,
    recipientId: string,
    label: string | null,
    rows: NewExpectedPackage[],
  ): Promise<ExpectedPackage[]> {
    const inserted = await db
      .insert(e)
      .values(rows.map((r) => ({ organizationId, recipientId, label, ...r })))
      .returning(REPLY);
    return inserted.map(toReply);
  },

  async delete(db: DbOrTx, organizationId: string, recipientId: string, id: string): Promise<boolean> {
    const rows = await db
      .delete(e)
      .where(and(ofRecipient(organizationId, recipientId), eq(e.id, id)))
      .returning({ id: e.id });
    return rows.length > 0;
  },

  /** Every one of the recipient's, matched or not: their erasure (decision 015) leaves none. */
  async deleteAllOf(db: DbOrTx, organizationId: string, recipientId: string): Promise<number> {
    const rows = await db.delete(e).where(ofRecipient(organizationId, recipientId)).returning({ id: e.id });
    return rows.length;
  },

  /**
   * Everyone who expects this key, oldest registration first (the open partial unique index on
   * organization, match key and recipient), for the desk's Log Mail dialog (decision 047).
   */
  async match(db: DbOrTx, organizationId: string, matchKey: string): Promise<ExpectedBy[]> {
    const rows = await openExpecters(db, organizationId, eq(e.matchKey, matchKey));
    return rows.map(({ expectedPackageId, label, recipient }) => ({ expectedPackageId, label, recipient }));
  },

  /** Who expects each of these keys (Needs a recipient's page), oldest registration first. */
  async expecters(db: DbOrTx, organizationId: string, keys: string[]) {
    const found = new Map<string, ExpectedBy['recipient'][]>();
    if (keys.length === 0) return found;
    for (const { matchKey, recipient } of await openExpecters(db, organizationId, inArray(e.matchKey, keys))) {
      found.set(matchKey, [...(found.get(matchKey) ?? []), recipient]);
    }
    return found;
  },
};

/** The open expected packages whose match key meets `keys`, with who expects each, oldest registration first. */
async function openExpecters(db: DbOrTx, organizationId: string, keys: SQL) {
  const rows = await db
    .select({
      expectedPackageId: e.id,
      label: e.label,
      matchKey: e.matchKey,
      id: recipients.id,
      firstName: recipients.firstName,
      lastName: recipients.lastName,
      unit: recipients.unit,
    })
    .from(e)
    .innerJoin(recipients, and(eq(recipients.organizationId, e.organizationId), eq(recipients.id, e.recipientId)))
    .where(and(eq(e.organizationId, organizationId), keys, open))
    .orderBy(asc(e.createdAt), asc(e.id));
  return rows.map(({ expectedPackageId, label, matchKey, ...recipient }) => ({
    expectedPackageId,
    label,
    matchKey,
    recipient,
  }));
}
