import type { Bus } from '../../lib/bus.ts';
import type { ChatRow } from './chats-repository.ts';

const CHANNEL = 'kadr:chat-list-changed';

/** What changed: chats (anything in them: a message, a receipt, a title, a member) and users (their chats, name, avatar, last seen). */
export interface ChatListChange {
  conversations?: number[];
  users?: number[];
}

interface Entry {
  userId: number;
  rows: ChatRow[];
  /** The epoch when the load that built it began. */
  ticket: number;
  /** Every chat the user was in when it was built (a message in any of them can move it onto the page). */
  chats: number[];
  /** The people the page shows (their name, avatar and last seen are on it). */
  peers: number[];
  expiresAt: number;
  /** The epoch at which it was last found fresh: nothing bumped since then, nothing to look up again. */
  checkedAt: number;
}

/**
 * The first page of each user's chat list, per node (ADR 0004's read cache, like the bell's first page):
 * the web asks for it on every start, reconnect and socket notice, while building it reads every chat of
 * the user to order them.
 *
 * Invalidation is by version, not by member list: every change bumps the chats it touched (and the users
 * whose set of chats or profile changed) to a new epoch, and a page is served only while none of the
 * user's chats, the user, or the page's peers changed after the load that built it began. So a message
 * to a group of thousands costs one bump, not a notice per member, and a chat off the page that gets a
 * message still drops the page it would move onto. Writers call `changed` after they committed and
 * before their socket notice goes out; the bus carries it to every other node. A load that began before
 * a change is never served after it (its ticket is older), whichever node the change came from.
 */
export async function chatListCache(
  bus: Bus,
  options: { ttlMs: number; maxEntries?: number; now?: () => number },
) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 20_000;
  let epoch = 0;
  /** Versions are forgotten wholesale beyond this; pages built before that are then refused. */
  let clearedAt = 0;
  const chatsAt = new Map<number, number>();
  const usersAt = new Map<number, number>();
  /** `<user>:<limit>` (or `:all`, the unpaged list) → the list from its start. */
  const pages = new Map<string, Entry>();

  function bump(change: ChatListChange) {
    epoch += 1;
    if (chatsAt.size + usersAt.size > 500_000) {
      chatsAt.clear();
      usersAt.clear();
      pages.clear();
      clearedAt = epoch;
    }
    for (const id of change.conversations ?? []) chatsAt.set(id, epoch);
    for (const id of change.users ?? []) usersAt.set(id, epoch);
  }

  const changedSince = (versions: Map<number, number>, ids: number[], ticket: number) =>
    ids.some((id) => (versions.get(id) ?? 0) > ticket);

  function fresh(entry: Entry): boolean {
    if (entry.expiresAt <= now()) return false;
    // A page is read far more often than anything is bumped: no bump since it was last checked, no
    // walk over every chat of the user (thousands for a member of many groups and channels).
    if (entry.checkedAt === epoch) return true;
    const ok =
      entry.ticket >= clearedAt &&
      (usersAt.get(entry.userId) ?? 0) <= entry.ticket &&
      !changedSince(usersAt, entry.peers, entry.ticket) &&
      !changedSince(chatsAt, entry.chats, entry.ticket);
    if (ok) entry.checkedAt = epoch;
    return ok;
  }

  await bus.subscribe(CHANNEL, (message) => bump(JSON.parse(message) as ChatListChange));

  return {
    /**
     * The user's list from its start (`limit` rows, null: all of it): cached, or built by `load` (the rows
     * and every chat id of the user) and kept unless something it depends on changed while it was built.
     */
    async firstPage(
      userId: number,
      limit: number | null,
      load: () => Promise<{ rows: ChatRow[]; chats: number[] }>,
    ): Promise<ChatRow[]> {
      const key = `${userId}:${limit ?? 'all'}`;
      const cached = pages.get(key);
      if (cached && fresh(cached)) return cached.rows;
      const ticket = epoch;
      const { rows, chats } = await load();
      if (options.ttlMs <= 0) return rows;
      const entry: Entry = {
        userId,
        rows,
        ticket,
        chats,
        peers: [...new Set(rows.flatMap((r) => (r.peer_id === null ? [] : [r.peer_id])))],
        expiresAt: now() + options.ttlMs,
        checkedAt: -1,
      };
      if (fresh(entry)) {
        pages.delete(key);
        pages.set(key, entry);
        if (pages.size > maxEntries) pages.delete(pages.keys().next().value as string);
      }
      return rows;
    },

    /** After a write committed: pages that depend on these chats or users are dropped here and on every node. */
    changed(change: ChatListChange) {
      if ((change.conversations?.length ?? 0) + (change.users?.length ?? 0) === 0) return;
      bump(change);
      // Published before the caller's socket notice goes out (both through Redis), so another node has
      // dropped its pages by the time a client there refetches on that notice.
      bus.publish(CHANNEL, JSON.stringify(change)).catch(() => undefined);
    },

    /** A change every node hears by itself (profile changes arrive through the profile cache's own bus). */
    changedHere(change: ChatListChange) {
      bump(change);
    },
  };
}

export type ChatListCache = Awaited<ReturnType<typeof chatListCache>>;
