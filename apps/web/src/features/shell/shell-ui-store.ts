import { create } from 'zustand';

interface ShellUi {
  menuOpen: boolean;
  setMenuOpen: (open: boolean) => void;
  /** A full-screen view (the messenger's chat on narrow screens) hides the bottom navigation. */
  navHidden: boolean;
  setNavHidden: (hidden: boolean) => void;
  /** The media view shows a post the signed-in user authored (gates the delete-post entry). */
  ownPostOnScreen: boolean;
  setOwnPostOnScreen: (own: boolean) => void;
  /** The media view shows a video post (gates the rotate-video entry: a photo has nothing to rotate). */
  videoPostOnScreen: boolean;
  setVideoPostOnScreen: (video: boolean) => void;
}

export const useShellUi = create<ShellUi>((set) => ({
  menuOpen: false,
  setMenuOpen: (menuOpen) => set({ menuOpen }),
  navHidden: false,
  setNavHidden: (navHidden) => set({ navHidden }),
  ownPostOnScreen: false,
  setOwnPostOnScreen: (ownPostOnScreen) => set({ ownPostOnScreen }),
  videoPostOnScreen: false,
  setVideoPostOnScreen: (videoPostOnScreen) => set({ videoPostOnScreen }),
}));
