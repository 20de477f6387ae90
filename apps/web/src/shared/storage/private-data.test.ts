import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { get, keys, set } from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { StorageKeys } from './keys.ts';
import {
  clearPrivateData,
  DEVICE_LOCAL_KEYS,
  onPrivateDataCleared,
  PRIVATE_DATABASE_NAMES,
  PRIVATE_LOCAL_KEYS,
} from './private-data.ts';
import { privateStore } from './private-stores.ts';

describe('private data on this device', () => {
  it('every localStorage key the app uses is either private (cleared on sign-out) or a device setting', () => {
    const classified = new Set<string>([...PRIVATE_LOCAL_KEYS, ...DEVICE_LOCAL_KEYS]);
    const unclassified = Object.values(StorageKeys).filter((key) => !classified.has(key));
    expect(unclassified).toEqual([]);
    const both = PRIVATE_LOCAL_KEYS.filter((key) => (DEVICE_LOCAL_KEYS as readonly string[]).includes(key));
    expect(both).toEqual([]);
    // The unsent messages and the session are the person's.
    expect(PRIVATE_LOCAL_KEYS).toContain(StorageKeys.messengerOutbox);
    expect(PRIVATE_LOCAL_KEYS).toContain(StorageKeys.authAccessToken);
  });

  it('sign-out removes the private keys, empties every IndexedDB store, the query cache and memory', async () => {
    for (const key of Object.values(StorageKeys)) localStorage.setItem(key, 'x');
    for (const name of PRIVATE_DATABASE_NAMES) await set('k', 'личное', privateStore(name));
    const queryClient = new QueryClient();
    queryClient.setQueryData(['messenger', 'chats'], { chats: [] });
    const forget = vi.fn();
    const off = onPrivateDataCleared(forget);

    await clearPrivateData(queryClient);

    for (const key of PRIVATE_LOCAL_KEYS) expect(localStorage.getItem(key), key).toBeNull();
    for (const key of DEVICE_LOCAL_KEYS) expect(localStorage.getItem(key), key).toBe('x');
    for (const name of PRIVATE_DATABASE_NAMES) {
      expect(await keys(privateStore(name)), name).toEqual([]);
      expect(await get('k', privateStore(name)), name).toBeUndefined();
    }
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    expect(forget).toHaveBeenCalledOnce();
    off();
  });
});
