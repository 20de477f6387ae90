import type { Bus } from '../../lib/bus.ts';
import { ReadThroughCache } from '../media/cache/read-through.ts';

const CHANNEL = 'kadr:push-recipients-changed';

/** What changed, as every node hears it: the members of these chats, or (`all`) someone's push subscriptions. */
interface PushRecipientsChange {
  conversations?: number[];
  all?: true;
}

/**
 * The members of each group or channel who have a push subscription, per node: every message to a group
 * looked them up (a join over its members) although they change only on a join, a leave, a removal, a
 * role or rights change, or a subscription change. Whoever commits such a change calls `roomChanged` or
 * `subscriptionsChanged`: this node drops the entry at once and the bus carries the notice to every other
 * node, so a removed member gets no push for the next message and a new one does, whichever node sends it.
 * A load that began before a change is never stored after it (ReadThroughCache's ticket); the TTL only
 * bounds memory and a lost notice. Subscriptions themselves are read again when a push goes out, so an
 * entry only ever narrows who is looked at.
 */
export async function pushRecipients(
  bus: Bus,
  load: (conversationId: number) => Promise<number[]>,
  options: { ttlMs?: number; maxEntries?: number } = {},
) {
  const cache = new ReadThroughCache<number, number[]>(
    options.maxEntries ?? 20_000,
    options.ttlMs ?? 300_000,
  );

  function drop(change: PushRecipientsChange) {
    if (change.all) cache.clear();
    else cache.invalidate(change.conversations ?? []);
  }
  await bus.subscribe(CHANNEL, (message) => drop(JSON.parse(message) as PushRecipientsChange));

  function changed(change: PushRecipientsChange) {
    drop(change);
    return bus.publish(CHANNEL, JSON.stringify(change));
  }

  return {
    /** Member ids of the chat with a push subscription (cached). */
    of: (conversationId: number) => cache.get(conversationId, () => load(conversationId)),
    /** After a membership or rights change of the chat committed: forgotten here and on every node. */
    roomChanged: (conversationId: number) => changed({ conversations: [conversationId] }),
    /** After a push subscription was added or removed (rare): every chat's entry is forgotten everywhere. */
    subscriptionsChanged: () => changed({ all: true }),
  };
}

export type PushRecipients = Awaited<ReturnType<typeof pushRecipients>>;
