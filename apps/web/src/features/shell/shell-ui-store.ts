import { create } from 'zustand';

interface ShellUi {
  menuOpen: boolean;
  setMenuOpen: (open: boolean) => void;
}

export const useShellUi = create<ShellUi>((set) => ({
  menuOpen: false,
  setMenuOpen: (menuOpen) => set({ menuOpen }),
}));
