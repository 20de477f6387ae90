import { get, set as idbSet } from 'idb-keyval';
import { create } from 'zustand';
import { onPrivateDataCleared } from '../../../shared/storage/private-memory.ts';
import { hasIndexedDb, privateStore } from '../../../shared/storage/private-stores.ts';

/** Typing pauses this long before a draft is written to the device. */
export const DRAFT_SAVE_MS = 400;

/** The drafts of one person, by chat (`peerIdOf` key: a peer's id, own id for favorites, minus a room's id). */
type Drafts = Record<string, string>;

interface DraftsState {
  ownerId: number | null;
  drafts: Drafts;
  /** Reads the person's drafts from the device (IndexedDB) once. */
  load(ownerId: number): Promise<void>;
  setDraft(chat: number, text: string): void;
  forget(): void;
}

const storeKey = (ownerId: number) => `drafts:${ownerId}`;
let saveTimer: ReturnType<typeof setTimeout> | undefined;

function save(ownerId: number, drafts: Drafts) {
  if (!hasIndexedDb()) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    void idbSet(storeKey(ownerId), drafts, privateStore('drafts')).catch(() => undefined);
  }, DRAFT_SAVE_MS);
}

/**
 * Unsent text per chat, kept on the device (IndexedDB) so a reload — online or not — finds it in the field
 * again, as Telegram keeps drafts. Cleared with everything private on sign-out.
 */
export const useDrafts = create<DraftsState>((set, getState) => ({
  ownerId: null,
  drafts: {},
  async load(ownerId) {
    if (getState().ownerId === ownerId) return;
    set({ ownerId, drafts: {} });
    if (!hasIndexedDb()) return;
    const stored = await get<Drafts>(storeKey(ownerId), privateStore('drafts')).catch(() => undefined);
    // Typed before the store answered: what is on screen wins.
    if (stored && getState().ownerId === ownerId) set((s) => ({ drafts: { ...stored, ...s.drafts } }));
  },
  setDraft(chat, text) {
    const { ownerId, drafts } = getState();
    if (ownerId === null || (drafts[chat] ?? '') === text) return;
    const next = { ...drafts };
    if (text.trim()) next[chat] = text;
    else delete next[chat];
    set({ drafts: next });
    save(ownerId, next);
  },
  forget() {
    clearTimeout(saveTimer);
    set({ ownerId: null, drafts: {} });
  },
}));

onPrivateDataCleared(() => useDrafts.getState().forget());
