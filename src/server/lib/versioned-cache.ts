import { LRUCache } from 'lru-cache';

/**
 * An in-process cache whose entries are valid for one version of what they were built from
 * (decision 037): a caller names the version it knows to be current (its organization's data
 * version, read with its session), and an entry built at another version is not served. Nothing
 * has to tell an instance that an entry went stale, so every instance is as current as the
 * version its request read, whatever it has or has not heard. Storage, the time-to-live (which
 * now only bounds memory and the platform figures' age) and the size bound are `lru-cache`'s;
 * this class adds:
 *
 * - concurrent misses on one key at one version share one load;
 * - `undefined` results and failures are not cached (a miss stays a miss);
 * - no version (`undefined`), or a TTL of 0, turns caching off for that call: it loads;
 * - an entry is never replaced by one of an older version (a slow load finishing late);
 * - hits and misses are counted (the metrics read them).
 *
 * Versions are decimal strings of a number that only grows (a sum of counters).
 */
export class VersionedCache<K extends NonNullable<unknown>, V> {
  private readonly entries: LRUCache<K, { value: V; version: string }> | undefined;
  private readonly loading = new Map<K, { version: string; promise: Promise<V> }>();
  hits = 0;
  misses = 0;

  constructor(ttlMs: number, maxEntries = 50_000) {
    this.entries = ttlMs > 0 ? new LRUCache({ max: maxEntries, ttl: ttlMs }) : undefined;
  }

  /** The value cached for `version`, or `load()`'s (stored for `version`). */
  async getOrLoad(key: K, version: string | undefined, load: () => Promise<V>): Promise<V> {
    if (!this.entries || version === undefined) return load();
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      this.hits += 1;
      return hit.value;
    }
    const pending = this.loading.get(key);
    if (pending && pending.version === version) return pending.promise;
    this.misses += 1;
    const promise: Promise<V> = load().then(
      (value) => {
        if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
        if (value !== undefined) this.store(key, version, value);
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, { version, promise });
    return promise;
  }

  private store(key: K, version: string, value: V) {
    const held = this.entries?.peek(key);
    if (held && BigInt(held.version) > BigInt(version)) return;
    this.entries?.set(key, { value, version });
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
