import type { Redis } from 'ioredis';

/**
 * Who is connected, counted by socket across every node. `connect` answers true when the user
 * just came online (first socket), `disconnect` true when the last socket left.
 */
export interface PresenceStore {
  connect(userId: number, socketId: string): Promise<boolean>;
  disconnect(userId: number, socketId: string): Promise<boolean>;
  onlineAmong(userIds: number[]): Promise<number[]>;
}

export function memoryPresence(): PresenceStore {
  const sockets = new Map<number, Set<string>>();
  return {
    async connect(userId, socketId) {
      let set = sockets.get(userId);
      if (!set) {
        set = new Set();
        sockets.set(userId, set);
      }
      set.add(socketId);
      return set.size === 1;
    },
    async disconnect(userId, socketId) {
      const set = sockets.get(userId);
      if (!set) return false;
      set.delete(socketId);
      if (set.size > 0) return false;
      sockets.delete(userId);
      return true;
    },
    async onlineAmong(userIds) {
      return userIds.filter((id) => sockets.has(id));
    },
  };
}

// A set of socket ids per user; the key expires a day after its last change so a crashed node cannot pin anyone online forever.
const KEY_TTL_S = 24 * 60 * 60;

export function redisPresence(redis: Redis, prefix: string): PresenceStore {
  return {
    async connect(userId, socketId) {
      const key = prefix + userId;
      const result = await redis.multi().sadd(key, socketId).scard(key).expire(key, KEY_TTL_S).exec();
      return result?.[1]?.[1] === 1;
    },
    async disconnect(userId, socketId) {
      const key = prefix + userId;
      const result = await redis.multi().srem(key, socketId).scard(key).exec();
      return result?.[0]?.[1] === 1 && result?.[1]?.[1] === 0;
    },
    async onlineAmong(userIds) {
      if (userIds.length === 0) return [];
      const pipeline = redis.pipeline();
      for (const id of userIds) pipeline.exists(prefix + id);
      const results = (await pipeline.exec()) ?? [];
      return userIds.filter((_, i) => results[i]?.[1] === 1);
    },
  };
}
