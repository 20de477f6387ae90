import { ReadThroughCache } from '../media/cache/read-through.ts';

/** What a new message shows of its sender. */
export interface SenderCard {
  username: string;
  name: string;
  avatar_url: string | null;
}

/**
 * Senders' names and avatars for new messages, per node: a send no longer joins `users` (on PGlite that join
 * cost more than the insert it rode on). Every profile change drops its users here (`forget`, called from
 * the profile cache's change notices, which reach every node); a load that overlapped a change is not kept
 * (ReadThroughCache), and the TTL bounds what a lost notice costs.
 */
export function senderCards(
  load: (ids: number[]) => Promise<Array<SenderCard & { id: number }>>,
  options: { capacity: number; ttlMs: number },
) {
  const cache = new ReadThroughCache<number, SenderCard>(options.capacity, options.ttlMs);
  return {
    /** The cards of these users; those the database no longer has are absent. */
    of(ids: number[]): Promise<Map<number, SenderCard>> {
      return cache.getMany([...new Set(ids)], async (missing) => {
        const rows = await load(missing);
        return new Map(rows.map(({ id, ...card }) => [id, card]));
      });
    },
    forget(ids: Iterable<number>) {
      cache.invalidate(ids);
    },
  };
}

export type SenderCards = ReturnType<typeof senderCards>;
