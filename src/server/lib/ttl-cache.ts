/**
 * A small in-process cache with a time-to-live, for lookups that every request repeats (the
 * session, the membership, the dashboard figures). Concurrent misses on one key share one load,
 * so a burst of requests after expiry costs one query. A TTL of 0 turns caching off.
 *
 * Writes on this instance invalidate at once; other instances see a change within the TTL.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  private readonly loading = new Map<K, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  /** The cached value, or `load()`'s; `undefined` results are not cached (misses stay misses). */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const promise = load().then(
      (value) => {
        this.loading.delete(key);
        if (value !== undefined) this.set(key, value);
        return value;
      },
      (err: unknown) => {
        this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  set(key: K, value: V) {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear(); // crude, but bounded and rare
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }

  delete(key: K) {
    this.entries.delete(key);
    this.loading.delete(key);
  }

  deleteWhere(match: (key: K, value: V) => boolean) {
    for (const [key, entry] of this.entries) if (match(key, entry.value)) this.entries.delete(key);
    this.loading.clear();
  }
}
