import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Users whose presence changed when the nodes were checked (see `PresenceStore.heartbeat`). */
export interface PresenceChanges {
  online: number[];
  offline: number[];
}

/**
 * Who is connected, counted by socket across every node. `connect` answers true when the user
 * just came online (first socket), `disconnect` true when the last socket left.
 */
export interface PresenceStore {
  connect(userId: number, socketId: string): Promise<boolean>;
  disconnect(userId: number, socketId: string): Promise<boolean>;
  onlineAmong(userIds: number[]): Promise<number[]>;
  /**
   * Called every `HEARTBEAT_MS` by each node: says this node is alive and removes the sockets of nodes that
   * stopped saying so (killed, crashed), answering who thereby went offline — and who came back online when
   * this node itself had been taken for dead (a stall longer than the node TTL) and put its sockets back.
   */
  heartbeat(): Promise<PresenceChanges>;
  /** A graceful stop, after this node's sockets are gone: it no longer counts as a node. */
  leave(): Promise<void>;
}

/** How often a node beats, and how long after its last beat it counts as dead. */
export const HEARTBEAT_MS = 3000;
export const NODE_TTL_MS = 15_000;

export function memoryPresence(): PresenceStore {
  // A user's one socket id as itself, a Set only from a second socket on: most users hold one socket, and a Set
  // costs ~150 bytes more (an idle socket's memory).
  const sockets = new Map<number, string | Set<string>>();
  return {
    async connect(userId, socketId) {
      const held = sockets.get(userId);
      if (held === undefined) {
        sockets.set(userId, socketId);
        return true;
      }
      if (held === socketId) return true;
      if (typeof held === 'string') sockets.set(userId, new Set([held, socketId]));
      else held.add(socketId);
      return false;
    },
    async disconnect(userId, socketId) {
      const held = sockets.get(userId);
      if (held === undefined) return false;
      if (typeof held === 'string') {
        if (held !== socketId) return false;
      } else {
        held.delete(socketId);
        if (held.size > 1) return false;
        const [left] = held;
        if (left !== undefined) {
          sockets.set(userId, left);
          return false;
        }
      }
      sockets.delete(userId);
      return true;
    },
    async onlineAmong(userIds) {
      return userIds.filter((id) => sockets.has(id));
    },
    // One process: its sockets die with it.
    heartbeat: async () => ({ online: [], offline: [] }),
    leave: async () => undefined,
  };
}

// A set of socket ids per user; the key expires a day after its last change so a crashed node cannot pin anyone online forever.
const KEY_TTL_S = 24 * 60 * 60;

/**
 * Each node also keeps the set of its own sockets (`node:<id>:sockets`, entries `<userId>:<socketId>`) and a
 * heartbeat key that expires NODE_TTL_MS after its last beat. A node killed with SIGKILL runs no disconnect
 * handler; the first live node that finds its heartbeat gone removes its sockets from the users' sets (one
 * node per dead one, by a NX lock), so its users go offline — or stay online through the socket they
 * reconnected with elsewhere.
 */
export function redisPresence(redis: Redis, prefix: string, nodeTtlMs = NODE_TTL_MS): PresenceStore {
  const nodeId = randomUUID();
  const nodesKey = `${prefix}nodes`;
  const aliveKey = (id: string) => `${prefix}node:${id}:alive`;
  const socketsKey = (id: string) => `${prefix}node:${id}:sockets`;
  /** This node's sockets, to put back if it was taken for dead while alive. */
  const local = new Set<string>();
  const entry = (userId: number, socketId: string) => `${userId}:${socketId}`;
  const userOf = (e: string) => Number(e.slice(0, e.indexOf(':')));
  const socketOf = (e: string) => e.slice(e.indexOf(':') + 1);

  async function sweep(deadId: string): Promise<number[]> {
    const locked = await redis.set(`${prefix}node:${deadId}:swept`, nodeId, 'PX', 60_000, 'NX');
    if (locked !== 'OK') return [];
    const offline: number[] = [];
    for (const e of await redis.smembers(socketsKey(deadId))) {
      const key = prefix + userOf(e);
      const result = await redis.multi().srem(key, socketOf(e)).scard(key).exec();
      if (result?.[0]?.[1] === 1 && result?.[1]?.[1] === 0) offline.push(userOf(e));
    }
    await redis.multi().del(socketsKey(deadId)).srem(nodesKey, deadId).exec();
    return offline;
  }

  return {
    async connect(userId, socketId) {
      const key = prefix + userId;
      local.add(entry(userId, socketId));
      const result = await redis
        .multi()
        .sadd(key, socketId)
        .scard(key)
        .expire(key, KEY_TTL_S)
        .sadd(socketsKey(nodeId), entry(userId, socketId))
        .exec();
      return result?.[1]?.[1] === 1;
    },
    async disconnect(userId, socketId) {
      const key = prefix + userId;
      local.delete(entry(userId, socketId));
      const result = await redis
        .multi()
        .srem(key, socketId)
        .scard(key)
        .srem(socketsKey(nodeId), entry(userId, socketId))
        .exec();
      return result?.[0]?.[1] === 1 && result?.[1]?.[1] === 0;
    },
    async heartbeat() {
      const previous = await redis.set(aliveKey(nodeId), '1', 'PX', nodeTtlMs, 'GET');
      await redis.sadd(nodesKey, nodeId);
      const online: number[] = [];
      if (previous === null && local.size > 0) {
        // Our beat had lapsed (or this is the first): another node may have swept our sockets. Put them back.
        for (const e of local) {
          const key = prefix + userOf(e);
          const result = await redis
            .multi()
            .sadd(key, socketOf(e))
            .scard(key)
            .expire(key, KEY_TTL_S)
            .sadd(socketsKey(nodeId), e)
            .exec();
          if (result?.[0]?.[1] === 1 && result?.[1]?.[1] === 1) online.push(userOf(e));
        }
      }
      const offline: number[] = [];
      for (const id of await redis.smembers(nodesKey)) {
        if (id === nodeId || (await redis.exists(aliveKey(id))) === 1) continue;
        offline.push(...(await sweep(id)));
      }
      return { online: [...new Set(online)], offline: [...new Set(offline)] };
    },
    async leave() {
      await redis.multi().del(aliveKey(nodeId)).srem(nodesKey, nodeId).del(socketsKey(nodeId)).exec();
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
