import type { ListPage } from './http';
import type { DashboardStats, HistoryStats, OrganizationSettings, Role } from '../contract';
import { TtlCache } from './lib/ttl-cache';
import type { UserRow } from './modules/auth/users.repository';
import type { ApiKeyPrincipal } from './modules/integrations/api-keys';

export type CachedSession = { expire: Date; user: UserRow };

/** The per-instance caches of hot lookups; services invalidate what their writes change. */
export function createCaches(ttlMs: number) {
  return {
    /** By session id (the token's hash). */
    sessions: new TtlCache<string, CachedSession | undefined>(ttlMs),
    /** By `${organizationId}:${userId}`. */
    memberships: new TtlCache<string, Role | undefined>(ttlMs),
    /** API key principals by the key's hash (a key acts as its creator, a member of its organization). */
    apiKeys: new TtlCache<string, ApiKeyPrincipal | undefined>(ttlMs),
    /** By organization id. */
    dashboardStats: new TtlCache<string, DashboardStats>(ttlMs),
    /** By organization id. */
    settings: new TtlCache<string, OrganizationSettings>(ttlMs),
    /** Finished list replies (JSON) by `${organizationId}|${query}`; any write to the organization's items clears them. */
    mailItemLists: new TtlCache<string, ListPage>(ttlMs, 5_000),
    /** History stat cards by `${organizationId}|${filter}`; cleared with the lists. */
    historyStats: new TtlCache<string, HistoryStats>(ttlMs, 5_000),
  };
}

export type Caches = ReturnType<typeof createCaches>;

export const membershipKey = (organizationId: string, userId: string) => `${organizationId}:${userId}`;

/** After a change to a user (name, password, sessions): forget everything cached about them. */
export function forgetUser(caches: Caches, userId: string) {
  caches.sessions.deleteWhere((_sid, session) => session?.user.id === userId);
  caches.apiKeys.deleteWhere((_hash, principal) => principal?.user.id === userId);
}

/**
 * After a member joins, leaves or changes role: their cached role, and the API keys that act as
 * them in that organization (a removed member's keys stop working at once).
 */
export function forgetMembership(caches: Caches, organizationId: string, userId: string) {
  caches.memberships.delete(membershipKey(organizationId, userId));
  caches.apiKeys.deleteWhere((_hash, p) => p?.organizationId === organizationId && p.user.id === userId);
}

/**
 * After a write to an organization's mail items, recipients, mailrooms or locations: its
 * dashboard figures and mail-item lists (which show recipient and shelf names) are stale.
 */
export function forgetOrganizationData(caches: Caches, organizationId: string) {
  caches.dashboardStats.delete(organizationId);
  const ofOrganization = (key: string) => key.startsWith(`${organizationId}|`);
  caches.mailItemLists.deleteWhere(ofOrganization);
  caches.historyStats.deleteWhere(ofOrganization);
}
