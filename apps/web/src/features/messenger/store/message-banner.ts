import type { ChatRef } from '@kadr/contract';
import { create } from 'zustand';

/** How long the in-app banner of a new message stays (Telegram's is about as long). */
export const BANNER_MS = 5000;

/** What the in-app banner shows of a message that arrived in a chat not on screen. */
export interface MessageBanner {
  /** Grows with every banner shown: a new message replaces the banner and restarts its time. */
  seq: number;
  chat: ChatRef;
  /** The chat's key in the list (`chatKey`), to open it. */
  chatKey: string;
  /** The sender's name; in a group or channel also the chat's name. */
  title: string;
  sender: { name: string; username: string; avatarUrl: string | null };
  preview: string;
}

interface BannerState {
  current: MessageBanner | null;
  show: (banner: Omit<MessageBanner, 'seq'>) => void;
  dismiss: () => void;
}

export const useMessageBanner = create<BannerState>((set) => ({
  current: null,
  show: (banner) => set((s) => ({ current: { ...banner, seq: (s.current?.seq ?? 0) + 1 } })),
  dismiss: () => set({ current: null }),
}));
