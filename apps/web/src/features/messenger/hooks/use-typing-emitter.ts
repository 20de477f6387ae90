import { useCallback, useRef } from 'react';
import { useRealtime } from '../../../shared/realtime/socket.ts';

/** At most one `typing` event per this interval while the user types; the peer shows it for 3 s. */
const TYPING_THROTTLE_MS = 1500;

export function useTypingEmitter(peerId: number | null, enabled: boolean): () => void {
  const socket = useRealtime((s) => s.socket);
  const last = useRef(0);
  return useCallback(() => {
    if (!enabled || peerId === null || !socket?.connected) return;
    const now = Date.now();
    if (now - last.current < TYPING_THROTTLE_MS) return;
    last.current = now;
    socket.emit('typing', { other_user_id: peerId, is_typing: true });
  }, [enabled, peerId, socket]);
}
