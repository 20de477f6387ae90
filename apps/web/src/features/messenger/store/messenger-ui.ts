import { create } from 'zustand';
import { StorageKeys } from '../../../shared/storage/keys.ts';
import { local } from '../../../shared/storage/local.ts';

export const SIDEBAR_MIN = 0.2;
export const SIDEBAR_MAX = 0.4;
export const SIDEBAR_DEFAULT = 0.3;

export const clampSidebar = (fraction: number): number =>
  Math.min(SIDEBAR_MAX, Math.max(SIDEBAR_MIN, Number.isFinite(fraction) ? fraction : SIDEBAR_DEFAULT));

/** The message being edited: the input holds its text until sent or cancelled. */
export interface EditingMessage {
  id: number;
  content: string;
}

interface MessengerUi {
  compactProfileOpen: boolean;
  mediaViewerOpen: boolean;
  /** The full-screen chat on narrow screens hides the shell's bottom navigation (spec §2.2). */
  fullScreenChat: boolean;
  sidebarFraction: number;
  searchFocusRequest: number;
  editing: EditingMessage | null;
  /** The peer id of the chat on screen (own id for favorites): its incoming messages are not unread. */
  openPeerId: number | null;
  /** A message to open its chat at (a search hit): the chat's window jumps there once it is shown. */
  jump: { chatKey: string; messageId: number } | null;
  requestJump: (chatKey: string, messageId: number) => void;
  takeJump: () => void;
  setCompactProfileOpen: (open: boolean) => void;
  setMediaViewerOpen: (open: boolean) => void;
  setFullScreenChat: (on: boolean) => void;
  setSidebarFraction: (fraction: number) => void;
  requestSearchFocus: () => void;
  setEditing: (editing: EditingMessage | null) => void;
  setOpenPeerId: (peerId: number | null) => void;
}

export const useMessengerUi = create<MessengerUi>((set) => ({
  compactProfileOpen: local.get(StorageKeys.messengerCompactProfileOpen) === 'true',
  mediaViewerOpen: false,
  fullScreenChat: false,
  sidebarFraction: SIDEBAR_DEFAULT,
  searchFocusRequest: 0,
  editing: null,
  openPeerId: null,
  jump: null,
  requestJump: (chatKey, messageId) => set({ jump: { chatKey, messageId } }),
  takeJump: () => set({ jump: null }),
  setCompactProfileOpen: (open) => {
    local.set(StorageKeys.messengerCompactProfileOpen, String(open));
    set({ compactProfileOpen: open });
  },
  setMediaViewerOpen: (mediaViewerOpen) => set({ mediaViewerOpen }),
  setFullScreenChat: (fullScreenChat) => set({ fullScreenChat }),
  setSidebarFraction: (fraction) => set({ sidebarFraction: clampSidebar(fraction) }),
  requestSearchFocus: () => set((s) => ({ searchFocusRequest: s.searchFocusRequest + 1 })),
  setEditing: (editing) => set({ editing }),
  setOpenPeerId: (openPeerId) => set({ openPeerId }),
}));
