import { createStore, type UseStore } from 'idb-keyval';

/**
 * The IndexedDB stores that hold a signed-in person's data on this device (one database each: idb-keyval
 * opens a database with a single store). Opened on first use only: a page that never needs them never
 * touches IndexedDB.
 */
export const PRIVATE_DATABASES = {
  /** Unsent text per chat (messenger drafts). */
  drafts: 'kadr-drafts',
  /** The messenger's chats and recent messages, for an offline start. */
  queryCache: 'kadr-query-cache',
} as const;

export type PrivateDatabase = keyof typeof PRIVATE_DATABASES;

const opened = new Map<PrivateDatabase, UseStore>();

export function privateStore(name: PrivateDatabase): UseStore {
  let store = opened.get(name);
  if (!store) {
    store = createStore(PRIVATE_DATABASES[name], 'keyval');
    opened.set(name, store);
  }
  return store;
}

/** Whether this browser has IndexedDB at all (private modes of some browsers, old test environments). */
export const hasIndexedDb = (): boolean => typeof indexedDB !== 'undefined';
