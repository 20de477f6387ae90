import { create } from 'zustand';

interface ReactionPickerState {
  /** The message whose reaction picker is open, and where. */
  open: { messageId: number; at: { x: number; y: number } } | null;
  show: (messageId: number, at: { x: number; y: number }) => void;
  close: () => void;
}

/** The one reaction picker of the open chat (opened from the message menu's 'Реакция'). */
export const useReactionPicker = create<ReactionPickerState>((set) => ({
  open: null,
  show: (messageId, at) => set({ open: { messageId, at } }),
  close: () => set({ open: null }),
}));
