import { create } from 'zustand';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { local } from '../../../shared/storage/local.ts';

export type MediaMode = 'sleep' | 'none';

const read = (): MediaMode => (local.get(StorageKeys.mediaMode) === 'sleep' ? 'sleep' : 'none');

interface MediaModeStore {
  mode: MediaMode;
  setMode: (mode: MediaMode) => void;
}

/** Sleep mode (spec §4.7), remembered in localStorage as `mediaMode`. */
export const useMediaMode = create<MediaModeStore>((set) => ({
  mode: read(),
  setMode: (mode) => {
    local.set(StorageKeys.mediaMode, mode);
    set({ mode });
  },
}));
