import type { Bus } from '../../lib/bus.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';

const CHANNEL = 'kadr:room-writers-changed';

/**
 * Per node, who was found allowed to write to a group (a member) or a channel (a member with `can_post`),
 * so an HTTP send to a group or channel needs no membership lookup (a socket send in a group already
 * skips it: being in the room is being a member). Only "may write" is remembered; a refusal is looked
 * up again every time.
 *
 * Every membership, role or rights change calls `messages.roomChanged` after it committed, which calls
 * `changed`: the chat's entries stop counting here at once and on every other node through the bus, so a
 * removed member or a revoked poster is refused on their next send whichever node takes it. Invalidation
 * is by version: a change moves the chat to a new epoch and an entry counts only if its lookup began
 * after the chat's last change, so a lookup that raced a change is never trusted. The TTL only bounds a
 * lost notice and memory.
 */
export async function roomWriters(bus: Bus, options: { ttlMs?: number; maxEntries?: number } = {}) {
  const maxEntries = options.maxEntries ?? 100_000;
  /** `<chat>:<user>` → the epoch when the lookup that found them allowed began. */
  const writers = new TtlCache<string, number>(maxEntries, options.ttlMs ?? 300_000);
  let epoch = 0;
  /** Chat → epoch of its last change; forgotten wholesale beyond `maxEntries` (older lookups then refused). */
  const changedAt = new Map<number, number>();
  let clearedAt = 0;
  const key = (conversationId: number, userId: number) => `${conversationId}:${userId}`;
  const since = (conversationId: number) => Math.max(changedAt.get(conversationId) ?? 0, clearedAt);

  function drop(conversationIds: number[]) {
    epoch += 1;
    if (changedAt.size + conversationIds.length > maxEntries) {
      changedAt.clear();
      clearedAt = epoch;
    }
    for (const id of conversationIds) changedAt.set(id, epoch);
  }
  await bus.subscribe(CHANNEL, (message) => drop(JSON.parse(message) as number[]));

  return {
    /** Whether `userId` was found allowed to write to the chat since its last change. */
    may(conversationId: number, userId: number): boolean {
      const found = writers.get(key(conversationId, userId));
      return found !== undefined && found >= since(conversationId);
    },
    /**
     * Runs `lookUp` (which throws when the user may not write) and remembers its success, unless the
     * chat changed while it ran.
     */
    async check<T>(conversationId: number, userId: number, lookUp: () => Promise<T>): Promise<T> {
      const ticket = epoch;
      const result = await lookUp();
      if (since(conversationId) <= ticket) writers.set(key(conversationId, userId), ticket);
      return result;
    },
    /** After a membership, role or rights change of the chat committed: forgotten here and on every node. */
    changed(conversationId: number): Promise<void> {
      drop([conversationId]);
      return bus.publish(CHANNEL, JSON.stringify([conversationId]));
    },
  };
}

export type RoomWriters = Awaited<ReturnType<typeof roomWriters>>;
