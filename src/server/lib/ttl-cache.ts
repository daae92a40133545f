import { LRUCache } from 'lru-cache';

/**
 * An in-process cache with a time-to-live, for lookups that every request repeats (the session,
 * the membership, the dashboard figures). Storage, expiry and the size bound are `lru-cache`'s
 * (least recently used entries go first); this class adds what our callers need on top
 * (decision 018):
 *
 * - concurrent misses on one key share one load, so a burst of requests after expiry costs one
 *   query;
 * - `undefined` results and failures are not cached (a miss stays a miss);
 * - an invalidation wins over a load in flight: a value loaded before `delete`, `deleteWhere` or
 *   `clear` is handed to the callers waiting for it but never stored (lru-cache's own `fetch`
 *   would reject those callers instead when the load found nothing);
 * - `deleteWhere` for invalidations by value (every session of a user);
 * - a TTL of 0 turns caching off, and so does `active()` answering false (caches.ts: while the
 *   instance cannot hear other instances' invalidations).
 */
export class TtlCache<K extends NonNullable<unknown>, V> {
  private readonly entries: LRUCache<K, { value: V }> | undefined;
  private readonly loading = new Map<K, Promise<V>>();

  constructor(
    ttlMs: number,
    maxEntries = 50_000,
    private readonly active: () => boolean = () => true,
  ) {
    this.entries = ttlMs > 0 ? new LRUCache({ max: maxEntries, ttl: ttlMs }) : undefined;
  }

  /** The cached value, or `load()`'s; `undefined` results are not cached (misses stay misses). */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    if (!this.entries || !this.active()) return load();
    const hit = this.entries.get(key);
    if (hit) return hit.value;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const promise: Promise<V> = load().then(
      (value) => {
        // Still the load of record: no invalidation came while it ran.
        if (this.loading.get(key) === promise) {
          this.loading.delete(key);
          if (value !== undefined) this.set(key, value);
        }
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  set(key: K, value: V) {
    if (!this.entries || !this.active()) return;
    this.entries.set(key, { value });
  }

  delete(key: K) {
    this.entries?.delete(key);
    this.loading.delete(key);
  }

  /** Forgets the entries that match, and every load in flight (its value is not known yet). */
  deleteWhere(match: (key: K, value: V) => boolean) {
    if (!this.entries) return;
    const stale: K[] = [];
    for (const [key, entry] of this.entries.entries()) if (match(key, entry.value)) stale.push(key);
    for (const key of stale) this.entries.delete(key);
    this.loading.clear();
  }

  clear() {
    this.entries?.clear();
    this.loading.clear();
  }

  /** Entries held now (expired ones may count until they are next looked at). */
  get size() {
    return this.entries?.size ?? 0;
  }
}
