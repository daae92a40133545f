import type { DashboardStats, Role } from '../contract';
import { TtlCache } from './lib/ttl-cache';
import type { UserRow } from './modules/auth/users.repository';

export type CachedSession = { expire: Date; user: UserRow };

/** The per-instance caches of hot lookups; services invalidate what their writes change. */
export function createCaches(ttlMs: number) {
  return {
    /** By session id (the token's hash). */
    sessions: new TtlCache<string, CachedSession | undefined>(ttlMs),
    /** By `${organizationId}:${userId}`. */
    memberships: new TtlCache<string, Role | undefined>(ttlMs),
    /** By organization id. */
    dashboardStats: new TtlCache<string, DashboardStats>(ttlMs),
  };
}

export type Caches = ReturnType<typeof createCaches>;

export const membershipKey = (organizationId: string, userId: string) => `${organizationId}:${userId}`;

/** After a change to a user (name, password, sessions): forget everything cached about them. */
export function forgetUser(caches: Caches, userId: string) {
  caches.sessions.deleteWhere((_sid, session) => session?.user.id === userId);
}
