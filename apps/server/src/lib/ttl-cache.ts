/**
 * The share of a TTL cut off at random from each entry's life: entries stored together (every user's session
 * and policy after a restart, or a bench's warm-up) then expire over a fifth of the TTL, not at one instant.
 * Expiring together, 1,000 users' caches reloaded within 0.3 s and held PGlite's thread (and every socket) for
 * tens of milliseconds, every TTL. A TTL stays an upper bound.
 */
export const TTL_SPREAD = 0.2;

/** When an entry stored `now` expires: at most `ttlMs` later, at least (1 − spread) of it. */
export const expiryOf = (now: number, ttlMs: number, spread: number) =>
  now + ttlMs * (1 - spread * Math.random());

/** A small LRU map whose entries also expire; insertion order doubles as recency. */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly spread = TTL_SPREAD,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: expiryOf(this.now(), this.ttlMs, this.spread) });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** How long the entry has left, ms, without counting as a use; undefined when there is none. */
  lifeLeft(key: K): number | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const left = entry.expiresAt - this.now();
    return left > 0 ? left : undefined;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
