import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { ListPage } from './http';
import type {
  DashboardStats,
  DashboardTrends,
  HistoryStats,
  OrganizationSettings,
  PlatformStats,
  Role,
} from '../contract';
import type { Db, DbOrTx } from './db/client';
import { notifyChange, type ChangeFeed } from './lib/change-feed';
import { TtlCache } from './lib/ttl-cache';
import type { ApiKeyPrincipal, SessionUser } from './context';

export type CachedSession = { expire: Date; user: SessionUser };

/**
 * How long the operator console's platform figures are reused (when caching is on at all). They
 * sum every organization's month (about 150 ms of SQL on 20,000 organizations and a million
 * history rows: scripts/bench/super-admin.ts), and an operator does not need them to the second.
 */
export const PLATFORM_STATS_TTL_MS = 30_000;

/**
 * What a write made stale. Forgotten on this instance at once and told to every other instance
 * through the change feed (decision 018), so a change made through one instance is seen by the
 * next request on any of them.
 */
export const CacheChange = z.discriminatedUnion('kind', [
  /** A signed-out session. */
  z.object({ kind: z.literal('session'), sessionId: z.string() }),
  /** A user's name, password, flags or sessions: their sessions and the API keys acting as them. */
  z.object({ kind: z.literal('user'), userId: z.string() }),
  /** A member joined, left or changed role. */
  z.object({ kind: z.literal('membership'), organizationId: z.string(), userId: z.string() }),
  /** An organization's items, recipients, mailrooms or locations: its figures and lists. */
  z.object({ kind: z.literal('organizationData'), organizationId: z.string() }),
  /** An organization itself (plan, status, timezone): its figures and lists, and the platform figures. */
  z.object({ kind: z.literal('organization'), organizationId: z.string() }),
  z.object({ kind: z.literal('settings'), organizationId: z.string() }),
  z.object({ kind: z.literal('apiKey'), apiKeyId: z.string() }),
  z.object({ kind: z.literal('integration'), integrationId: z.string() }),
]);
export type CacheChange = z.infer<typeof CacheChange>;

/** The change feed's kind for cache invalidations; the payload is `{ changes: CacheChange[] }`. */
export const CACHE_FEED_KIND = 'cache';
const CacheMessage = z.object({ changes: z.array(z.unknown()) });

/** How the caches hear of and tell about changes on other instances (connectCaches). */
type CacheBus = {
  /** False while this instance may miss other instances' changes: the caches then serve nothing. */
  live: boolean;
  /** Tells the other instances right away (the changes of one tick go out as one message). */
  send: (change: CacheChange) => void;
  /** Tells the other instances as part of a transaction: they hear of it when, and only if, it commits. */
  sendIn: (tx: DbOrTx, changes: CacheChange[]) => Promise<void>;
};

/**
 * The per-instance caches of hot lookups; services invalidate what their writes change, here and
 * on every other instance (decision 018).
 */
export function createCaches(ttlMs: number) {
  const bus: CacheBus = { live: true, send: () => undefined, sendIn: async () => undefined };
  const active = () => bus.live;
  const cache = <K extends NonNullable<unknown>, V>(maxEntries?: number, ttl = ttlMs) =>
    new TtlCache<K, V>(ttl, maxEntries, active);
  return {
    /** By session id (the token's hash). */
    sessions: cache<string, CachedSession | undefined>(),
    /** By `${organizationId}:${userId}`. */
    memberships: cache<string, Role | undefined>(),
    /** API key principals by the key's hash (a key acts as its creator, a member of its organization). */
    apiKeys: cache<string, ApiKeyPrincipal | undefined>(),
    /** By organization id. */
    dashboardStats: cache<string, DashboardStats>(),
    /** By organization id: the texts under the dashboard's cards, the costliest of its reads. */
    dashboardTrends: cache<string, DashboardTrends>(),
    /** By organization id. */
    settings: cache<string, OrganizationSettings>(),
    /** Finished list replies (JSON) by `${organizationId}|${query}`; any write to the organization's items clears them. */
    mailItemLists: cache<string, ListPage>(5_000),
    /** History stat cards by `${organizationId}|${filter}`; cleared with the lists. */
    historyStats: cache<string, HistoryStats>(5_000),
    /** The super admin console's figures (one entry). */
    platformStats: cache<'stats', PlatformStats>(1, ttlMs > 0 ? PLATFORM_STATS_TTL_MS : 0),
    bus,
  };
}

export type Caches = ReturnType<typeof createCaches>;

export const membershipKey = (organizationId: string, userId: string) => `${organizationId}:${userId}`;

/** Empties every cache (this instance may have missed changes). */
export function clearCaches(caches: Caches) {
  for (const value of Object.values(caches)) if (value instanceof TtlCache) value.clear();
}

/** An organization's figures and lists, on this instance. */
function forgetDataHere(caches: Caches, organizationId: string) {
  caches.dashboardStats.delete(organizationId);
  caches.dashboardTrends.delete(organizationId);
  const ofOrganization = (key: string) => key.startsWith(`${organizationId}|`);
  caches.mailItemLists.deleteWhere(ofOrganization);
  caches.historyStats.deleteWhere(ofOrganization);
}

/** Forgets, on this instance only, what `change` made stale. */
export function applyChange(caches: Caches, change: CacheChange) {
  switch (change.kind) {
    case 'session':
      caches.sessions.delete(change.sessionId);
      return;
    case 'user': {
      const { userId } = change;
      caches.sessions.deleteWhere((_sid, session) => session?.user.id === userId);
      caches.apiKeys.deleteWhere((_hash, principal) => principal?.user.id === userId);
      return;
    }
    case 'membership': {
      const { organizationId, userId } = change;
      caches.memberships.delete(membershipKey(organizationId, userId));
      caches.apiKeys.deleteWhere((_hash, p) => p?.organizationId === organizationId && p.user.id === userId);
      return;
    }
    case 'organization':
      caches.platformStats.clear();
      forgetDataHere(caches, change.organizationId);
      return;
    case 'organizationData':
      forgetDataHere(caches, change.organizationId);
      return;
    case 'settings':
      caches.settings.delete(change.organizationId);
      return;
    case 'apiKey':
      caches.apiKeys.deleteWhere((_hash, p) => p?.apiKeyId === change.apiKeyId);
      return;
    case 'integration':
      caches.apiKeys.deleteWhere((_hash, p) => p?.integrationId === change.integrationId);
      return;
  }
}

/**
 * After a write has committed (or for one that is a single statement): forgets what it made
 * stale here at once, and tells the other instances right after.
 */
export function forget(caches: Caches, change: CacheChange) {
  applyChange(caches, change);
  caches.bus.send(change);
}

/** After a change to a user (name, password, sessions): forget everything cached about them. */
export function forgetUser(caches: Caches, userId: string) {
  forget(caches, { kind: 'user', userId });
}

/**
 * After a member joins, leaves or changes role: their cached role, and the API keys that act as
 * them in that organization (a removed member's keys stop working at once).
 */
export function forgetMembership(caches: Caches, organizationId: string, userId: string) {
  forget(caches, { kind: 'membership', organizationId, userId });
}

/**
 * After a write to an organization's mail items, recipients, mailrooms or locations: its
 * dashboard figures and mail-item lists (which show recipient and shelf names) are stale.
 */
export function forgetOrganizationData(caches: Caches, organizationId: string) {
  forget(caches, { kind: 'organizationData', organizationId });
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * A transaction whose writes make cached entries stale, named with `forget` inside it. The other
 * instances are told in the same transaction (a NOTIFY is delivered when, and only if, its
 * transaction commits); this instance forgets once it has committed, so a request that read the
 * old rows meanwhile cannot leave them cached.
 */
export async function transactionForgetting<T>(
  db: Db,
  caches: Caches,
  work: (tx: Tx, forget: (change: CacheChange) => void) => Promise<T>,
): Promise<T> {
  const changes: CacheChange[] = [];
  const result = await db.transaction(async (tx) => {
    const value = await work(tx, (change) => void changes.push(change));
    if (changes.length > 0) await caches.bus.sendIn(tx, changes);
    return value;
  });
  for (const change of changes) applyChange(caches, change);
  return result;
}

/** Changes per message: each is at most about 130 bytes, far under the feed's 8,000. */
const CHANGES_PER_MESSAGE = 40;

function inMessages(changes: CacheChange[]) {
  const messages: { changes: CacheChange[] }[] = [];
  for (let i = 0; i < changes.length; i += CHANGES_PER_MESSAGE) {
    messages.push({ changes: changes.slice(i, i + CHANGES_PER_MESSAGE) });
  }
  return messages;
}

/**
 * For code outside the app that changes what instances cache (the operator's commands): tells
 * every running instance, inside `tx` so only a committed change is heard.
 */
export async function tellInstances(tx: DbOrTx, changes: CacheChange[], sender = 'operator') {
  for (const message of inMessages(changes)) await notifyChange(tx, sender, CACHE_FEED_KIND, message);
}

/**
 * Joins this instance's caches to the change feed: its changes go to the other instances, theirs
 * are applied here, and while the feed is not listening (at start, after a lost connection) the
 * caches serve nothing; whenever listening starts or stops they are emptied, since changes may
 * have been missed in between.
 */
export function connectCaches(caches: Caches, feed: ChangeFeed, log: FastifyBaseLogger) {
  const { bus } = caches;
  const setLive = (listening: boolean) => {
    bus.live = listening;
    clearCaches(caches);
  };
  setLive(feed.listening);
  feed.onListening(setLive);

  feed.subscribe(CACHE_FEED_KIND, (payload) => {
    const message = CacheMessage.safeParse(payload);
    const changes = message.success ? message.data.changes.map((c) => CacheChange.safeParse(c)) : [];
    if (!message.success || changes.some((c) => !c.success)) {
      // A sender newer than this instance, or a stranger on the channel: forget everything to be safe.
      log.warn('cache: a change message not understood; clearing the caches');
      clearCaches(caches);
      return;
    }
    for (const change of changes) if (change.success) applyChange(caches, change.data);
  });

  let pending: Map<string, CacheChange> | undefined;
  const flush = () => {
    const changes = [...(pending?.values() ?? [])];
    pending = undefined;
    for (const message of inMessages(changes)) {
      feed.publish(CACHE_FEED_KIND, message).catch((err: unknown) => {
        // The other instances keep what this change made stale until their TTL ends.
        log.error({ err }, 'cache: telling the other instances of a change failed');
      });
    }
  };
  bus.send = (change) => {
    if (!pending) {
      pending = new Map();
      setImmediate(flush);
    }
    pending.set(JSON.stringify(change), change);
  };
  bus.sendIn = async (tx, changes) => {
    for (const message of inMessages(changes)) await feed.publish(CACHE_FEED_KIND, message, tx);
  };
}
