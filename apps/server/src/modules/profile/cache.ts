import type { Bus } from '../../lib/bus.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import type { ProfileRow } from './mappers.ts';

export type ProfileBase = Omit<ProfileRow, 'is_following'>;

const CHANGED_CHANNEL = 'kadr:profile-changed';

/** A profile change as every node hears it: `ids` whose profile changed, `pair` = [follower, followee] of a follow change. */
export interface ProfileChange {
  ids: number[];
  pair?: [number, number];
}

/**
 * Read-through cache for profile reads, the hottest path of the app. Every write that changes a profile
 * (name, bio, avatar, counts, last_seen) calls `invalidate` with the user ids; the bus carries it to every
 * node, so a change is visible everywhere at once and the TTL only bounds memory and missed notices.
 */
export async function profileCache(bus: Bus, ttlMs: number) {
  const byUsername = new TtlCache<string, ProfileBase>(20_000, ttlMs);
  const usernameById = new Map<number, string>();
  const follows = new TtlCache<string, boolean>(100_000, ttlMs);
  const listeners: Array<(change: ProfileChange) => void> = [];

  function drop(ids: number[]) {
    for (const id of ids) {
      const key = usernameById.get(id);
      if (key !== undefined) byUsername.delete(key);
      usernameById.delete(id);
    }
  }
  await bus.subscribe(CHANGED_CHANNEL, (message) => {
    const change = JSON.parse(message) as ProfileChange;
    drop(change.ids);
    if (change.pair) follows.delete(`${change.pair[0]}:${change.pair[1]}`);
    for (const listener of listeners) listener(change);
  });

  return {
    profile(username: string): ProfileBase | undefined {
      return byUsername.get(username.toLowerCase());
    },
    storeProfile(row: ProfileBase) {
      const key = row.username.toLowerCase();
      byUsername.set(key, row);
      usernameById.set(row.id, key);
    },
    isFollowing(viewerId: number, targetId: number): boolean | undefined {
      return follows.get(`${viewerId}:${targetId}`);
    },
    storeFollowing(viewerId: number, targetId: number, value: boolean) {
      follows.set(`${viewerId}:${targetId}`, value);
    },
    /**
     * Other caches that show profile data or depend on follows (e.g. the media feed) listen here: called at
     * once on the node that made the change and again on every node when the bus carries it.
     */
    onChange(listener: (change: ProfileChange) => void) {
      listeners.push(listener);
    },
    async invalidate(ids: number[], pair?: [number, number]) {
      drop(ids);
      if (pair) follows.delete(`${pair[0]}:${pair[1]}`);
      for (const listener of listeners) listener({ ids, pair });
      await bus.publish(CHANGED_CHANNEL, JSON.stringify({ ids, pair }));
    },
  };
}

export type ProfileCache = Awaited<ReturnType<typeof profileCache>>;
