import type { ChatsResponse } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import { get, set } from 'idb-keyval';
import { onPrivateDataCleared } from '../../../shared/storage/private-memory.ts';
import { hasIndexedDb, privateStore } from '../../../shared/storage/private-stores.ts';
import type { Conversation } from './conversation-cache.ts';
import { messengerKeys } from './messenger-keys.ts';

/** What the device keeps of the messenger for an offline start: the list and the newest of recent chats. */
export interface OfflineSnapshot {
  savedAt: number;
  chats: ChatsResponse | null;
  /** By conversation key (`peerIdOf`), the newest messages of the chats opened most recently. */
  conversations: [number, Conversation][];
}

/** Chats whose messages are kept, and messages kept per chat. */
export const KEEP_CONVERSATIONS = 30;
export const KEEP_MESSAGES = 50;
const SAVE_AFTER_MS = 1000;

const snapshotKey = (userId: number) => `messenger:${userId}`;

/** The messenger's part of the query cache, cut to what is kept. */
export function snapshotOf(queryClient: QueryClient, now: number = Date.now()): OfflineSnapshot {
  const chats = queryClient.getQueryData<ChatsResponse>(messengerKeys.chats()) ?? null;
  const conversations = queryClient
    .getQueriesData<Conversation>({ queryKey: messengerKeys.conversations() })
    .flatMap(([key, data]) => {
      const peer = key[2];
      if (data === undefined || typeof peer !== 'number') return [];
      return [{ peer, data, updatedAt: queryClient.getQueryState(key)?.dataUpdatedAt ?? 0 }];
    })
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, KEEP_CONVERSATIONS)
    .map(({ peer, data }): [number, Conversation] => {
      const kept = data.messages.slice(-KEEP_MESSAGES);
      return [peer, { messages: kept, has_more: data.has_more || kept.length < data.messages.length }];
    });
  return { savedAt: now, chats, conversations };
}

/**
 * Puts a snapshot back where nothing fresher is held: the queries look as old as the snapshot, so they
 * refetch as soon as there is a network, and until then (offline) the kept list and messages show.
 */
export function restoreSnapshot(queryClient: QueryClient, snapshot: OfflineSnapshot): void {
  const put = (key: readonly unknown[], data: unknown) => {
    if (queryClient.getQueryState(key)?.dataUpdatedAt) return;
    queryClient.setQueryData(key, data, { updatedAt: snapshot.savedAt });
  };
  if (snapshot.chats) put(messengerKeys.chats(), snapshot.chats);
  for (const [peer, conversation] of snapshot.conversations)
    put(messengerKeys.conversation(peer), conversation);
}

/**
 * Keeps the messenger's cache on the device (IndexedDB, one entry per person) and restores it at start.
 * Returns the detach.
 */
export function keepMessengerOffline(queryClient: QueryClient, userId: number): () => void {
  if (!hasIndexedDb()) return () => {};
  const store = privateStore('queryCache');
  let live = true;
  void get<OfflineSnapshot>(snapshotKey(userId), store)
    .then((snapshot) => {
      if (live && snapshot) restoreSnapshot(queryClient, snapshot);
    })
    .catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.query.queryKey[0] !== messengerKeys.all[0]) return;
    const second = event.query.queryKey[1];
    if (second !== 'chats' && second !== 'conversation') return;
    if (event.query.state.data === undefined || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (live) void set(snapshotKey(userId), snapshotOf(queryClient), store).catch(() => undefined);
    }, SAVE_AFTER_MS);
  });
  const detach = () => {
    live = false;
    clearTimeout(timer);
    unsubscribe();
    offCleared();
  };
  // Signing out stops any save still waiting before the stores are emptied (nothing is written back).
  const offCleared = onPrivateDataCleared(detach);
  return detach;
}
