import type { QueryClient } from '@tanstack/react-query';
import { clear } from 'idb-keyval';
import { type StorageKey, StorageKeys } from './keys.ts';
import { local } from './local.ts';
import { forgetPrivateMemory } from './private-memory.ts';
import { hasIndexedDb, PRIVATE_DATABASES, type PrivateDatabase, privateStore } from './private-stores.ts';

/**
 * The one place that knows where a signed-in person's data lives on this device, so signing out (or the
 * server ending the session) leaves none of it behind: localStorage keys, IndexedDB stores, the query
 * cache, and what features hold in memory on top of those (the outbox, drafts).
 */

/** localStorage keys that hold the person's data or identity: removed on sign-out. */
export const PRIVATE_LOCAL_KEYS = [
  StorageKeys.authAccessToken,
  StorageKeys.authUser,
  StorageKeys.userId,
  StorageKeys.userName,
  StorageKeys.username,
  StorageKeys.messengerOutbox,
  StorageKeys.modalState,
  StorageKeys.mediaCurrentPostId,
  StorageKeys.reactErrors,
  StorageKeys.lastError,
] as const satisfies readonly StorageKey[];

/**
 * localStorage keys that describe this device, not the person (appearance before the first paint,
 * layout choices, the stored data version): kept, as Telegram keeps a device's theme after a sign-out.
 */
export const DEVICE_LOCAL_KEYS = [
  StorageKeys.dataVersion,
  StorageKeys.authDevices,
  StorageKeys.settingsTheme,
  StorageKeys.settingsTextSize,
  StorageKeys.mediaMode,
  StorageKeys.livestreamPreferredCamera,
  StorageKeys.messengerHideUnreadBadges,
  StorageKeys.messengerCompactProfileOpen,
  StorageKeys.messengerStickersOpen,
  StorageKeys.notificationsPanelWidth,
] as const satisfies readonly StorageKey[];

/** Every IndexedDB store of the person's data: emptied on sign-out. */
export const PRIVATE_DATABASE_NAMES: readonly PrivateDatabase[] = Object.keys(
  PRIVATE_DATABASES,
) as PrivateDatabase[];

export { onPrivateDataCleared } from './private-memory.ts';

/**
 * Removes everything the signed-in person left on this device. Synchronous parts first (memory, the query
 * cache, localStorage), so nothing renders or is written back from them; the IndexedDB stores empty
 * asynchronously (the returned promise).
 */
export function clearPrivateData(queryClient: QueryClient | null): Promise<void> {
  forgetPrivateMemory();
  queryClient?.clear();
  local.remove(...PRIVATE_LOCAL_KEYS);
  if (!hasIndexedDb()) return Promise.resolve();
  return Promise.all(
    PRIVATE_DATABASE_NAMES.map((name) => clear(privateStore(name)).catch(() => undefined)),
  ).then(() => undefined);
}
