import type { ListPage } from './http';
import type { DashboardStats, DashboardTrends, HistoryStats, OrganizationSettings, PlatformStats } from '../contract';
import { VersionedCache } from './lib/versioned-cache';

/**
 * How long the operator console's platform figures are reused (when caching is on at all). They
 * sum every organization's month (about 150 ms of SQL on 20,000 organizations and a million
 * history rows: scripts/bench/super-admin.ts), and an operator does not need them to the second.
 */
const PLATFORM_STATS_TTL_MS = 30_000;

/** The platform figures have no data version of their own: their age is bounded by the TTL alone. */
export const PLATFORM_STATS_VERSION = '0';

/**
 * The per-instance caches of costly organization reads (decision 037). Each entry is kept with
 * the organization's data version it was built at (`organization_data_versions`, kept by triggers
 * inside every writing transaction) and served only to a request that read the same version with
 * its session: a write committed on any instance is seen by the next request on every instance,
 * with no message to wait for. Who may call (sessions, memberships, API keys) is never cached: it
 * is read with the session in one statement on every request.
 */
export function createCaches(ttlMs: number) {
  const cache = <K extends NonNullable<unknown>, V>(maxEntries?: number, ttl = ttlMs) =>
    new VersionedCache<K, V>(ttl, maxEntries);
  return {
    /** By organization id. */
    dashboardStats: cache<string, DashboardStats>(),
    /** By organization id: the texts under the dashboard's cards, the costliest of its reads. */
    dashboardTrends: cache<string, DashboardTrends>(),
    /** By organization id. */
    settings: cache<string, OrganizationSettings>(),
    /** Finished list replies (JSON) by `${organizationId}|${query}`. */
    mailItemLists: cache<string, ListPage>(5_000),
    /** History stat cards by `${organizationId}|${filter}`. */
    historyStats: cache<string, HistoryStats>(5_000),
    /** The super admin console's figures (one entry, PLATFORM_STATS_VERSION). */
    platformStats: cache<'stats', PlatformStats>(1, ttlMs > 0 ? PLATFORM_STATS_TTL_MS : 0),
  };
}

export type Caches = ReturnType<typeof createCaches>;

/** Empties every cache (tests that change rows behind the application's back). */
export function clearCaches(caches: Caches) {
  for (const value of Object.values(caches)) value.clear();
}
