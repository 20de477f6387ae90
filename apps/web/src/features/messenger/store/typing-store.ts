import { Limits } from '@kadr/contract/browser';
import { create } from 'zustand';

/** Who is typing to me: peer id → when the indicator expires (spec §9: 3 s unless renewed). */
interface TypingStore {
  until: Record<number, number>;
  setTyping: (peerId: number, typing: boolean, now?: number) => void;
}

export const useTypingStore = create<TypingStore>((set) => ({
  until: {},
  setTyping: (peerId, typing, now = Date.now()) =>
    set((s) => {
      const { [peerId]: _old, ...rest } = s.until;
      return { until: typing ? { ...rest, [peerId]: now + Limits.typingMs } : rest };
    }),
}));

export function isTyping(until: Record<number, number>, peerId: number, now: number = Date.now()): boolean {
  return (until[peerId] ?? 0) > now;
}
