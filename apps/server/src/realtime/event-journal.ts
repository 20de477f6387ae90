import type { Redis } from 'ioredis';

/**
 * How far back a first connection may ask. A page reads its data at once and connects its socket when the
 * browser is idle — seconds later on a slow phone, not minutes; an older page is told that anything may have
 * changed.
 */
export const JOURNAL_WINDOW_MS = 120_000;

/** How long a node gathers its notes before it writes them to Redis in one round trip. */
const FLUSH_MS = 20;

/**
 * Which events each user was sent, and when (only the last time per event name and causing page, for
 * `JOURNAL_WINDOW_MS`). A page's first socket connection asks it what went by between the page's first data
 * answers and that connection, so the page refetches those queries, and only those (ADR 0042).
 */
export interface EventJournal {
  /**
   * `event` was just sent to `userId`'s room, caused by a write of `page` (or by no page: ''). Called on every
   * emit to a user: no I/O on this path.
   */
  note(userId: number, event: string, page?: string): void;
  /**
   * The event names sent to `userId` at or after `since` (epoch ms), leaving out those only `page` caused (the
   * page shows what it did); null when `since` is older than the window.
   */
  since(userId: number, since: number, page?: string): Promise<string[] | null>;
  close(): Promise<void>;
}

/** One entry per event and causing page: `<event> <page>` (neither holds a space). */
const entry = (event: string, page = '') => `${event} ${page}`;

/** Per user, the last time of each entry. */
function noteIn(users: Map<number, Map<string, number>>, userId: number, key: string, at: number): void {
  let times = users.get(userId);
  if (!times) {
    times = new Map();
    users.set(userId, times);
  }
  times.set(key, at);
}

function within(times: Iterable<[string, number]>, since: number, page?: string): string[] {
  const events = new Set<string>();
  for (const [key, at] of times) {
    const [event = '', cause = ''] = key.split(' ');
    if (at >= since && (cause === '' || cause !== page)) events.add(event);
  }
  return [...events].sort();
}

/** One process: a map per user, swept of what the window has passed. */
export function memoryJournal(now: () => number = Date.now): EventJournal {
  const users = new Map<number, Map<string, number>>();
  const sweep = setInterval(() => {
    const oldest = now() - JOURNAL_WINDOW_MS;
    for (const [userId, times] of users) {
      for (const [event, at] of times) if (at < oldest) times.delete(event);
      if (times.size === 0) users.delete(userId);
    }
  }, JOURNAL_WINDOW_MS / 4);
  sweep.unref();
  return {
    note(userId, event, page) {
      noteIn(users, userId, entry(event, page), now());
    },
    async since(userId, since, page) {
      if (since < now() - JOURNAL_WINDOW_MS) return null;
      return within(users.get(userId)?.entries() ?? [], since, page);
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

/**
 * Every node: a hash per user (`<prefix><userId>`: `<event> <page>` → epoch ms) that expires with the window, so a page
 * whose socket lands on another node than the one that sent the event still hears of it. Notes are gathered
 * for FLUSH_MS and written in one pipeline.
 */
export function redisJournal(redis: Redis, prefix: string, now: () => number = Date.now): EventJournal {
  let pending = new Map<number, Map<string, number>>();
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<unknown> = Promise.resolve();

  function flush(): Promise<unknown> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.size === 0) return writing;
    const batch = pending;
    pending = new Map();
    const pipeline = redis.pipeline();
    for (const [userId, times] of batch) {
      const key = prefix + userId;
      pipeline.hset(key, Object.fromEntries(times)).pexpire(key, JOURNAL_WINDOW_MS);
    }
    // A lost note costs a refetch that does not happen, never a failure of the emit that made it.
    writing = pipeline.exec().catch(() => undefined);
    return writing;
  }

  return {
    note(userId, event, page) {
      noteIn(pending, userId, entry(event, page), now());
      timer ??= setTimeout(flush, FLUSH_MS);
    },
    async since(userId, since, page) {
      if (since < now() - JOURNAL_WINDOW_MS) return null;
      await flush();
      const stored = await redis.hgetall(prefix + userId);
      return within(
        Object.entries(stored).map(([key, at]) => [key, Number(at)] as [string, number]),
        since,
        page,
      );
    },
    async close() {
      await flush();
    },
  };
}
