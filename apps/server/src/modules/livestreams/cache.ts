import type { Bus } from '../../lib/bus.ts';
import { ReadThroughCache } from '../media/cache/read-through.ts';
import type { ProfileChange } from '../profile/cache.ts';
import type { LiveStreamRow } from './tables.ts';

const CHANNEL = 'kadr:livestreams-changed';

/** What changed, as every node hears it: streams whose row changed (ended). */
export interface LiveStreamsChange {
  streams: number[];
}

/**
 * The live chat's per-node read cache (ADR 0001's pattern, with the feed's read-through guard of ADR 0004):
 * every chat message needs its stream (is it live?) and its sender's name, and a stream with 1,000 viewers
 * chatting at 20 messages/s must not pay two database reads for each. Stream rows and sender names are kept
 * per node. A stream's end calls `changed` after it committed: this node drops the row at once and the bus
 * carries the notice to every other node, so a message to an ended stream is refused everywhere. A name or
 * an account change (the profile cache's notice, heard on every node) drops that user's name and the rows
 * of the streams they host (a deleted account takes its streams with it). The TTL only bounds memory and a
 * lost notice.
 */
export async function livestreamsCache(
  bus: Bus,
  ttlMs: number,
  profiles?: { onChange(listener: (change: ProfileChange) => void): void },
) {
  const streams = new ReadThroughCache<number, LiveStreamRow>(10_000, ttlMs);
  const senderNames = new ReadThroughCache<number, string>(100_000, ttlMs);
  /** host id → the ids of that host's streams the row cache may hold (for an account change). */
  const hosted = new Map<number, Set<number>>();

  function dropStreams(ids: number[]) {
    streams.invalidate(ids);
  }
  function dropUsers(ids: number[]) {
    senderNames.invalidate(ids);
    for (const id of ids) {
      const own = hosted.get(id);
      if (!own) continue;
      hosted.delete(id);
      streams.invalidate(own);
    }
  }

  await bus.subscribe(CHANNEL, (message) => dropStreams((JSON.parse(message) as LiveStreamsChange).streams));
  profiles?.onChange(({ ids }) => dropUsers(ids));

  return {
    /** The stream's row (cached), or undefined when there is no such stream. */
    async stream(id: number, load: (id: number) => Promise<LiveStreamRow | undefined>) {
      const found = await streams.getMany([id], async ([key]) => {
        const row = await load(key as number);
        if (!row) return new Map();
        if (hosted.size > 20_000) {
          hosted.clear();
          streams.clear();
        }
        const own = hosted.get(row.user_id) ?? new Set<number>();
        if (own.size > 1000) own.clear();
        own.add(row.id);
        hosted.set(row.user_id, own);
        return new Map([[row.id, row]]);
      });
      return found.get(id);
    },

    /** The sender's display name (cached); '' for an unknown user. */
    async senderName(userId: number, load: (id: number) => Promise<string | undefined>) {
      const found = await senderNames.getMany([userId], async ([key]) => {
        const name = await load(key as number);
        return name === undefined ? new Map() : new Map([[key as number, name]]);
      });
      return found.get(userId) ?? '';
    },

    /** Call after a stream's row changed (it ended): drops it here and on every other node. */
    async changed(change: LiveStreamsChange) {
      dropStreams(change.streams);
      await bus.publish(CHANNEL, JSON.stringify(change));
    },
  };
}

export type LivestreamsCache = Awaited<ReturnType<typeof livestreamsCache>>;
