import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  ORGANIZATION_SEARCH_SQL,
  USER_SEARCH_SQL,
  billingPayments,
  organizationMembers,
  organizations,
  users,
} from '../../db/schema';
import { escapeLike } from '../../lib/like';
import { packagesThisMonth } from '../organizations/usage.repository';

/**
 * The platform-wide reads of the super admin console. Not a tenant repository: these are the
 * only queries that cross organizations, and only `super-admin.routes.ts` (behind the super
 * admin check) reaches them. Every figure is an SQL aggregate and every list a page.
 */

/** A search term as the trigram indexes' expression matches it (organizations_/users_search_trgm_idx). */
const matches = (expression: SQL, search: string) => sql`${expression} like ${`%${escapeLike(search.toLowerCase())}%`}`;

const organizationView = {
  id: organizations.id,
  name: organizations.name,
  domain: organizations.emailDomain,
  planType: organizations.planType,
  subscriptionStatus: organizations.subscriptionStatus,
  maxUsers: organizations.maxUsers,
  maxPackagesPerMonth: organizations.maxPackagesPerMonth,
  createdAt: organizations.createdAt,
  trialEndsAt: organizations.trialEndDate,
  memberCount: sql<number>`(select count(*)::int from organization_members m where m.organization_id = "organizations"."id")`,
  packageCount: packagesThisMonth(),
};

const userView = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  isSuperAdmin: users.isSuperAdmin,
  createdAt: users.createdAt,
};

/**
 * The organizations of a page of users, in one query by their ids (organization_members_user_idx):
 * a plan that stays an index lookup even before the planner has statistics, unlike a
 * per-user subquery.
 */
async function withOrganizations<U extends { id: string }>(db: DbOrTx, rows: U[]) {
  if (rows.length === 0) return [];
  const memberships = await db
    .select({ userId: organizationMembers.userId, id: organizations.id, name: organizations.name })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(
      inArray(
        organizationMembers.userId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(organizations.name);
  const byUser = new Map<string, Array<{ id: string; name: string }>>();
  for (const m of memberships) {
    const list = byUser.get(m.userId) ?? [];
    list.push({ id: m.id, name: m.name });
    byUser.set(m.userId, list);
  }
  return rows.map((r) => ({ ...r, organizations: byUser.get(r.id) ?? [] }));
}

export type PlatformOrganizationRow = NonNullable<Awaited<ReturnType<typeof superAdminRepository.findOrganization>>>;
export type PlatformUserRow = NonNullable<Awaited<ReturnType<typeof superAdminRepository.findUser>>>;

export const superAdminRepository = {
  async stats(db: DbOrTx) {
    const [row] = await db
      .execute<{
        total_organizations: number;
        active_trials: number;
        paid_subscriptions: number;
        packages: number;
        total_users: number;
        revenue_cents: string;
      }>(
        sql`
      select
        (select count(*)::int from organizations) as total_organizations,
        (select count(*)::int from organizations
          where subscription_status = 'trial' and trial_end_date >= now()) as active_trials,
        (select count(*)::int from organizations
          where plan_type <> 'trial' and subscription_status = 'active') as paid_subscriptions,
        (select coalesce(sum(${packagesThisMonth()}), 0)::int from organizations) as packages,
        (select count(*)::int from users) as total_users,
        (select coalesce(sum(${billingPayments.amount}), 0)::bigint from ${billingPayments}
          where ${billingPayments.status} = 'paid' and ${billingPayments.provider} <> 'demo') as revenue_cents`,
      )
      .then((r) => r.rows);
    return {
      totalOrganizations: row!.total_organizations,
      totalUsers: row!.total_users,
      activeTrials: row!.active_trials,
      paidSubscriptions: row!.paid_subscriptions,
      totalPackagesThisMonth: row!.packages,
      revenueCents: Number(row!.revenue_cents),
    };
  },

  /**
   * Newest first (organizations_created_idx); searched by name or domain. The page's ids are
   * found first, so the per-row counts are computed for its rows only, not for every row an
   * offset skips.
   */
  listOrganizations(db: DbOrTx, search: string | undefined, limit: number, offset: number) {
    const order = [desc(organizations.createdAt), desc(organizations.id)];
    const page = db
      .select({ id: organizations.id })
      .from(organizations)
      .where(search ? matches(ORGANIZATION_SEARCH_SQL, search) : undefined)
      .orderBy(...order)
      .limit(limit)
      .offset(offset);
    return db
      .select(organizationView)
      .from(organizations)
      .where(inArray(organizations.id, page))
      .orderBy(...order);
  },

  async countOrganizations(db: DbOrTx, search: string | undefined): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(organizations)
      .where(search ? matches(ORGANIZATION_SEARCH_SQL, search) : undefined);
    return row?.n ?? 0;
  },

  async findOrganization(db: DbOrTx, id: string) {
    const [row] = await db.select(organizationView).from(organizations).where(eq(organizations.id, id));
    return row;
  },

  /** Newest first (users_created_idx); searched by email, username or full name; ids first, as above. */
  async listUsers(db: DbOrTx, search: string | undefined, limit: number, offset: number) {
    const order = [desc(users.createdAt), desc(users.id)];
    const page = db
      .select({ id: users.id })
      .from(users)
      .where(search ? matches(USER_SEARCH_SQL, search) : undefined)
      .orderBy(...order)
      .limit(limit)
      .offset(offset);
    const rows = await db
      .select(userView)
      .from(users)
      .where(inArray(users.id, page))
      .orderBy(...order);
    return withOrganizations(db, rows);
  },

  async countUsers(db: DbOrTx, search: string | undefined): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(users)
      .where(search ? matches(USER_SEARCH_SQL, search) : undefined);
    return row?.n ?? 0;
  },

  async findUser(db: DbOrTx, id: string) {
    const [row] = await withOrganizations(db, await db.select(userView).from(users).where(eq(users.id, id)));
    return row;
  },

  /**
   * Whether the user holds the flag now, and has two-factor on: read fresh, so a revoke holds on
   * every instance at once. Undefined for anyone without the flag.
   */
  async superAdminAccess(db: DbOrTx, id: string): Promise<{ twoFactor: boolean } | undefined> {
    const [row] = await db
      .select({ twoFactorEnabledAt: users.twoFactorEnabledAt })
      .from(users)
      .where(and(eq(users.id, id), eq(users.isSuperAdmin, true)));
    return row ? { twoFactor: row.twoFactorEnabledAt !== null } : undefined;
  },
};
