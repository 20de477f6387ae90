import { TtlCache } from '../../lib/ttl-cache.ts';

/** What a new message shows of its sender. */
export interface SenderCard {
  username: string;
  name: string;
  avatar_url: string | null;
}

/**
 * Senders' names and avatars for new messages, per node: a send no longer joins `users` (on PGlite that join
 * cost more than the insert it rode on). Every profile change drops its users here (`forget`, called from
 * the profile cache's change notices, which reach every node), and the TTL bounds what a lost notice costs.
 */
export function senderCards(
  load: (ids: number[]) => Promise<Array<SenderCard & { id: number }>>,
  options: { capacity: number; ttlMs: number },
) {
  const cache = new TtlCache<number, SenderCard>(options.capacity, options.ttlMs);
  // Bumped by every `forget`: a load that started before one may hold the old profile, so it is not kept.
  let changes = 0;

  return {
    /** The cards of these users; those the database no longer has are absent. */
    async of(ids: number[]): Promise<Map<number, SenderCard>> {
      const found = new Map<number, SenderCard>();
      const missing: number[] = [];
      for (const id of new Set(ids)) {
        const card = cache.get(id);
        if (card) found.set(id, card);
        else missing.push(id);
      }
      if (missing.length === 0) return found;
      const before = changes;
      for (const { id, username, name, avatar_url } of await load(missing)) {
        const card = { username, name, avatar_url };
        found.set(id, card);
        if (changes === before) cache.set(id, card);
      }
      return found;
    },
    forget(ids: Iterable<number>) {
      changes += 1;
      for (const id of ids) cache.delete(id);
    },
  };
}

export type SenderCards = ReturnType<typeof senderCards>;
