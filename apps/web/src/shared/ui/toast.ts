import { create } from 'zustand';

interface ToastState {
  message: string | null;
  seq: number;
  show: (message: string) => void;
  dismiss: () => void;
}

/** One short notice at a time (an action that failed away from any form); replaces window.alert. */
export const useToast = create<ToastState>((set) => ({
  message: null,
  seq: 0,
  show: (message) => set((s) => ({ message, seq: s.seq + 1 })),
  dismiss: () => set({ message: null }),
}));

export const showToast = (message: string): void => useToast.getState().show(message);
