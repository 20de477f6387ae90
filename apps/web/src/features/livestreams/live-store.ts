import { create } from 'zustand';

interface LiveUi {
  /** A stream whose host invited the signed-in user as a guest, until answered. */
  invitation: { streamId: number } | null;
  invite: (streamId: number) => void;
  dismiss: (streamId?: number) => void;
}

export const useLiveUi = create<LiveUi>((set) => ({
  invitation: null,
  invite: (streamId) => set({ invitation: { streamId } }),
  dismiss: (streamId) =>
    set((s) => (streamId === undefined || s.invitation?.streamId === streamId ? { invitation: null } : s)),
}));
