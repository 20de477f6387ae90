import type { NotificationsResponse } from '@kadr/contract';
import type { Bus } from '../../lib/bus.ts';
import { ReadThroughCache } from '../media/cache/read-through.ts';

const CHANNEL = 'kadr:notifications-changed';

/**
 * The first page of each user's notifications, per node, in the style of the feed's read cache (ADR 0004):
 * the bell reloads it on every open and every socket notice, while it changes only when the service stores,
 * reads or drops that user's notifications. Every such write calls `changed` after it committed: this node
 * drops the entry at once and the bus carries the change to every other node. Rows removed by a cascade the
 * service does not see (an actor's account or a chat deleted) leave the page within the TTL.
 */
export async function notificationsCache(bus: Bus, ttlMs: number) {
  const firstPages = new ReadThroughCache<number, NotificationsResponse>(20_000, ttlMs);
  await bus.subscribe(CHANNEL, (message) => firstPages.invalidate(JSON.parse(message) as number[]));
  return {
    firstPages,
    /** Call after a write committed: drops these users' pages here and on every other node. */
    async changed(userIds: number[]) {
      firstPages.invalidate(userIds);
      await bus.publish(CHANNEL, JSON.stringify(userIds));
    },
  };
}

export type NotificationsCache = Awaited<ReturnType<typeof notificationsCache>>;
