/**
 * At most `limit` entries, each kept until its expiry (none by default); when full, the oldest entry
 * makes room. The one eviction policy of the process's small caches (verified tokens, rule subjects,
 * compiled rules), so that none of them grows with its input.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(private readonly limit: number) {}

  /** The value kept for `key`, unless it expired by `now` (ms since the epoch). */
  get(key: K, now: number = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now < entry.expiresAt) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** The value kept for `key`, or the one `make` returns, kept from now on (without expiry). */
  getOrMake(key: K, make: () => V): V {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const made = make();
    this.set(key, made);
    return made;
  }

  /** Keeps `value` for `key` until `expiresAt` (ms since the epoch). */
  set(key: K, value: V, expiresAt = Number.POSITIVE_INFINITY): void {
    this.entries.delete(key);
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, expiresAt });
  }

  get size(): number {
    return this.entries.size;
  }
}
