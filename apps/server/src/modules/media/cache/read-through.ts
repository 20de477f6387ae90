import { expiryOf, TTL_SPREAD } from '../../../lib/ttl-cache.ts';

/**
 * A read-through cache (LRU + TTL) whose loads can never store a value that was invalidated while they ran:
 * a load takes a ticket (the invalidation epoch) before it reads the database, and `store` drops any key
 * invalidated after that ticket. Without this guard a read that began before a write commits, and finishes
 * after the write's notice arrived, would keep the old value until the TTL.
 *
 * `get` also shares one load per key between concurrent callers (no stampede on a cold key); a key
 * invalidated while its load runs starts a fresh load for the next caller.
 *
 * Entries expire within `ttlMs` (spread over its last fifth, see lib/ttl-cache.ts) and the oldest stored is evicted beyond `maxEntries`. Unlike lib/ttl-cache a hit
 * does not reorder the map: a feed page makes ~30 lookups, and hot entries are re-stored after each TTL anyway.
 */
export class ReadThroughCache<K, V> {
  private entries = new Map<K, { value: V; expiresAt: number }>();
  private epoch = 0;
  private clearedAt = 0;
  /** key → epoch of its last invalidation; only kept while some load that began earlier is still running. */
  private readonly invalidatedAt = new Map<K, number>();
  /** start epoch → number of loads still running that took it. */
  private readonly running = new Map<number, number>();
  private readonly pending = new Map<K, Promise<V | undefined>>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly spread = TTL_SPREAD,
  ) {}

  peek(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  private set(key: K, value: V) {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: expiryOf(this.now(), this.ttlMs, this.spread) });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** A ticket for a load about to read the database; pass it to `store`, then `release` it. */
  private begin(): number {
    this.running.set(this.epoch, (this.running.get(this.epoch) ?? 0) + 1);
    return this.epoch;
  }

  /** Stores a loaded value unless the key was invalidated since the ticket was taken. */
  private store(ticket: number, key: K, value: V): void {
    if (this.clearedAt > ticket || (this.invalidatedAt.get(key) ?? -1) > ticket) return;
    this.set(key, value);
  }

  private release(ticket: number): void {
    const left = (this.running.get(ticket) ?? 1) - 1;
    if (left > 0) this.running.set(ticket, left);
    else this.running.delete(ticket);
    if (this.running.size === 0) this.invalidatedAt.clear();
    else if (this.invalidatedAt.size > 10_000) {
      const oldest = Math.min(...this.running.keys());
      for (const [key, at] of this.invalidatedAt) if (at <= oldest) this.invalidatedAt.delete(key);
    }
  }

  /**
   * Loads `keys`, joining loads already running for some of them and running `loader` once for the rest;
   * stores what comes back (when `keep` allows) unless invalidated meanwhile. A key the loader does not
   * return is absent from the result.
   */
  async loadMany(
    keys: K[],
    loader: (keys: K[]) => Promise<Map<K, V>>,
    keep: (value: V) => boolean = () => true,
  ): Promise<Map<K, V>> {
    const own = keys.filter((key) => !this.pending.has(key));
    if (own.length > 0) {
      const ticket = this.begin();
      const batch = loader(own)
        .then((loaded) => {
          for (const [key, value] of loaded) if (keep(value)) this.store(ticket, key, value);
          return loaded;
        })
        .finally(() => this.release(ticket));
      for (const key of own) {
        const one = batch
          .then((loaded) => loaded.get(key))
          .finally(() => {
            if (this.pending.get(key) === one) this.pending.delete(key);
          });
        this.pending.set(key, one);
      }
    }
    const values = await Promise.all(keys.map((key) => this.pending.get(key)));
    const found = new Map<K, V>();
    keys.forEach((key, i) => {
      const value = values[i];
      if (value !== undefined) found.set(key, value);
    });
    return found;
  }

  /** Cached values for `keys`; the missing ones come from one shared load (see `loadMany`). */
  async getMany(
    keys: K[],
    loader: (missing: K[]) => Promise<Map<K, V>>,
    keep?: (value: V) => boolean,
  ): Promise<Map<K, V>> {
    const found = new Map<K, V>();
    const missing: K[] = [];
    for (const key of keys) {
      const value = this.peek(key);
      if (value === undefined) missing.push(key);
      else found.set(key, value);
    }
    if (missing.length === 0) return found;
    for (const [key, value] of await this.loadMany(missing, loader, keep)) found.set(key, value);
    return found;
  }

  /** The cached value, or one shared load of it. */
  async get(key: K, loader: () => Promise<V>): Promise<V> {
    const value = this.peek(key);
    if (value !== undefined) return value;
    const loaded = await this.loadMany([key], async () => new Map([[key, await loader()]]));
    return loaded.get(key) as V;
  }

  invalidate(keys: Iterable<K>): void {
    this.epoch++;
    for (const key of keys) {
      this.entries.delete(key);
      this.pending.delete(key);
      if (this.running.size > 0) this.invalidatedAt.set(key, this.epoch);
    }
  }

  clear(): void {
    this.epoch++;
    this.clearedAt = this.epoch;
    this.entries = new Map();
    this.pending.clear();
  }
}
