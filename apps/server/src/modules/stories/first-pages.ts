/** A built first page: its JSON bytes, the authors it was built from, and when it stops being true. */
export interface FirstPage {
  body: Buffer;
  /** Every author whose stories, name, avatar or blocks the page was computed from (shown or not). */
  authors: readonly number[];
  /** Clock time (ms) past which the page may show an expired story: the earliest `expires_at` in it. */
  expiresAt: number;
}

/**
 * Each viewer's first stories page as sent, per node. A page depends on the viewer (follows, blacklist,
 * views, likes, reports) and on every author it was built from, so besides the entries it keeps the
 * reverse index author → viewers: a change of an author drops the pages of everyone who follows them.
 *
 * Like `ReadThroughCache`, a build can never store a page that a change made stale while it ran: a build
 * takes a ticket (the change epoch) before it reads, and is not stored when its viewer or any of its
 * authors changed after that ticket. Concurrent misses of one viewer share one build.
 *
 * An entry lives until the earliest expiry among its stories (by the service's clock, which tests move)
 * and at most `ttlMs`; the oldest stored is evicted beyond `maxEntries`.
 */
export class FirstPages {
  private readonly entries = new Map<number, FirstPage>();
  private readonly watchers = new Map<number, Set<number>>();
  private readonly pending = new Map<number, Promise<Buffer>>();
  private epoch = 0;
  private clearedAt = 0;
  /** Epochs of the last change per viewer / author; only kept while a build that began earlier runs. */
  private readonly viewerChangedAt = new Map<number, number>();
  private readonly authorChangedAt = new Map<number, number>();
  private running = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  /** The stored page, if still true by the clock. */
  peek(viewer: number): Buffer | undefined {
    const entry = this.entries.get(viewer);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.now()) return entry.body;
    this.remove(viewer);
    return undefined;
  }

  /** The stored page, or one shared build of it (stored unless something it read changed meanwhile). */
  get(viewer: number, build: () => Promise<FirstPage>): Promise<Buffer> {
    const hit = this.peek(viewer);
    if (hit !== undefined) return Promise.resolve(hit);
    const running = this.pending.get(viewer);
    if (running) return running;
    const ticket = this.epoch;
    this.running++;
    const done = build()
      .then((page) => {
        if (this.fresh(ticket, viewer, page)) this.set(viewer, page);
        return page.body;
      })
      .finally(() => {
        if (this.pending.get(viewer) === done) this.pending.delete(viewer);
        if (--this.running === 0) {
          this.viewerChangedAt.clear();
          this.authorChangedAt.clear();
        }
      });
    this.pending.set(viewer, done);
    return done;
  }

  private fresh(ticket: number, viewer: number, page: FirstPage): boolean {
    if (this.ttlMs <= 0 || this.clearedAt > ticket) return false;
    if ((this.viewerChangedAt.get(viewer) ?? -1) > ticket) return false;
    for (const author of page.authors) if ((this.authorChangedAt.get(author) ?? -1) > ticket) return false;
    return page.expiresAt > this.now();
  }

  private set(viewer: number, page: FirstPage) {
    this.remove(viewer);
    const expiresAt = Math.min(page.expiresAt, this.now() + this.ttlMs);
    this.entries.set(viewer, { ...page, expiresAt });
    for (const author of page.authors) {
      const viewers = this.watchers.get(author);
      if (viewers) viewers.add(viewer);
      else this.watchers.set(author, new Set([viewer]));
    }
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.remove(oldest.value);
    }
  }

  private remove(viewer: number) {
    const entry = this.entries.get(viewer);
    if (!entry) return;
    this.entries.delete(viewer);
    for (const author of entry.authors) {
      const viewers = this.watchers.get(author);
      viewers?.delete(viewer);
      if (viewers?.size === 0) this.watchers.delete(author);
    }
  }

  /** The viewers' own state changed (follows, blacklist, views, likes, reports). */
  dropViewers(viewers: Iterable<number>) {
    this.epoch++;
    for (const viewer of viewers) {
      this.remove(viewer);
      this.pending.delete(viewer);
      if (this.running > 0) this.viewerChangedAt.set(viewer, this.epoch);
    }
  }

  /** These authors' stories, counters, names, avatars or blocks changed: every page built from them goes. */
  dropAuthors(authors: Iterable<number>) {
    this.epoch++;
    for (const author of authors) {
      for (const viewer of this.watchers.get(author) ?? []) this.remove(viewer);
      if (this.running > 0) this.authorChangedAt.set(author, this.epoch);
    }
    // Which running builds read these authors is known only when they finish: a later reader starts anew.
    this.pending.clear();
  }

  clear() {
    this.epoch++;
    this.clearedAt = this.epoch;
    this.entries.clear();
    this.watchers.clear();
    this.pending.clear();
  }

  get size() {
    return this.entries.size;
  }
}
