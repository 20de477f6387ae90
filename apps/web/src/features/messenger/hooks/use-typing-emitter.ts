import { useCallback, useRef } from 'react';
import { useRealtime } from '../../../shared/realtime/socket.ts';

/** At most one `typing` event per this interval while the user types; the peer shows it for 3 s. */
const TYPING_THROTTLE_MS = 1500;

/**
 * `typing()` on each input renews the peer's indicator (throttled); `stopped()` after a send
 * clears it at once and lets the next keystroke announce itself without waiting for the throttle.
 */
export function useTypingEmitter(peerId: number | null, enabled: boolean) {
  const socket = useRealtime((s) => s.socket);
  const last = useRef(0);
  const typing = useCallback(() => {
    if (!enabled || peerId === null || !socket?.connected) return;
    const now = Date.now();
    if (now - last.current < TYPING_THROTTLE_MS) return;
    last.current = now;
    socket.emit('typing', { other_user_id: peerId, is_typing: true });
  }, [enabled, peerId, socket]);
  const stopped = useCallback(() => {
    if (last.current === 0) return;
    last.current = 0;
    if (enabled && peerId !== null && socket?.connected) {
      socket.emit('typing', { other_user_id: peerId, is_typing: false });
    }
  }, [enabled, peerId, socket]);
  return { typing, stopped };
}
