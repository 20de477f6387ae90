import { create } from 'zustand';

interface ShellUi {
  menuOpen: boolean;
  setMenuOpen: (open: boolean) => void;
  /** The media view shows a post the signed-in user authored (gates the delete-post entry). */
  ownPostOnScreen: boolean;
  setOwnPostOnScreen: (own: boolean) => void;
}

export const useShellUi = create<ShellUi>((set) => ({
  menuOpen: false,
  setMenuOpen: (menuOpen) => set({ menuOpen }),
  ownPostOnScreen: false,
  setOwnPostOnScreen: (ownPostOnScreen) => set({ ownPostOnScreen }),
}));
