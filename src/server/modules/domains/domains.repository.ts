import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { organizationDomains } from '../../db/schema';

export type DomainRow = typeof organizationDomains.$inferSelect;

/** The partial unique index that lets one organization at most hold a domain verified. */
export const VERIFIED_DOMAIN_INDEX = 'organization_domains_verified_domain_idx';
/** The unique index of one organization's claim of one domain. */
export const CLAIMED_DOMAIN_INDEX = 'organization_domains_org_domain_idx';

const scoped = (organizationId: string, id: string) =>
  and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.id, id));

export const domainsRepository = {
  /** The organization's domains, by name. */
  list(db: DbOrTx, organizationId: string): Promise<DomainRow[]> {
    return db
      .select()
      .from(organizationDomains)
      .where(eq(organizationDomains.organizationId, organizationId))
      .orderBy(asc(organizationDomains.domain));
  },

  async find(db: DbOrTx, organizationId: string, id: string): Promise<DomainRow | undefined> {
    const [row] = await db.select().from(organizationDomains).where(scoped(organizationId, id));
    return row;
  },

  async findByDomain(db: DbOrTx, organizationId: string, domain: string): Promise<DomainRow | undefined> {
    const [row] = await db
      .select()
      .from(organizationDomains)
      .where(and(eq(organizationDomains.organizationId, organizationId), eq(organizationDomains.domain, domain)));
    return row;
  },

  /**
   * How many domains the organization has claimed, counted under a per-organization transaction
   * lock so two claims at once cannot both pass the cap. Call inside the claim's transaction.
   */
  async countLocked(tx: DbOrTx, organizationId: string): Promise<number> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${'domains:' + organizationId}, 0))`);
    const [row] = await tx
      .select({ n: count() })
      .from(organizationDomains)
      .where(eq(organizationDomains.organizationId, organizationId));
    return row?.n ?? 0;
  },

  async insert(
    db: DbOrTx,
    organizationId: string,
    values: { domain: string; verificationToken: string; createdBy: string },
  ): Promise<DomainRow> {
    const [row] = await db
      .insert(organizationDomains)
      .values({ ...values, organizationId })
      .returning();
    return row!;
  },

  /**
   * Marks a pending domain verified; undefined when it is not the organization's or no longer
   * pending. Throws the unique violation of VERIFIED_DOMAIN_INDEX when another organization holds
   * it verified (the index, not a read, decides: two verifications at once cannot both win).
   */
  async markVerified(
    db: DbOrTx,
    organizationId: string,
    id: string,
    verifiedBy: string,
  ): Promise<DomainRow | undefined> {
    const [row] = await db
      .update(organizationDomains)
      .set({ status: 'verified', verifiedAt: new Date(), verifiedBy })
      .where(and(scoped(organizationId, id), eq(organizationDomains.status, 'pending')))
      .returning();
    return row;
  },

  async delete(db: DbOrTx, organizationId: string, id: string): Promise<DomainRow | undefined> {
    const [row] = await db.delete(organizationDomains).where(scoped(organizationId, id)).returning();
    return row;
  },

  /**
   * Platform reads (no organization id: they answer across organizations, so the caller runs
   * them unscoped). Whether some organization holds `domain` verified, and which: what a claim
   * is checked against and what single sign-on will ask of an address's domain.
   */
  async findVerified(db: DbOrTx, domain: string): Promise<{ organizationId: string; id: string } | undefined> {
    const [row] = await db
      .select({ organizationId: organizationDomains.organizationId, id: organizationDomains.id })
      .from(organizationDomains)
      .where(and(eq(organizationDomains.domain, domain), eq(organizationDomains.status, 'verified')));
    return row;
  },
};
