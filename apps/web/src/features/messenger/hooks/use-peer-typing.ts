import { useEffect, useState } from 'react';
import { useTypingStore } from '../store/typing-store.ts';

/**
 * Whether this peer is typing to me now. Subscribes to that peer's expiry only and sets one timer at it,
 * so a list of thousands of rows re-renders just the row whose peer started or stopped typing.
 */
export function usePeerTyping(peerId: number | null): boolean {
  const until = useTypingStore((s) => (peerId === null ? 0 : (s.until[peerId] ?? 0)));
  const [, expire] = useState(0);
  const live = until > Date.now();
  useEffect(() => {
    if (!live) return;
    const timer = window.setTimeout(() => expire((n) => n + 1), until - Date.now() + 10);
    return () => window.clearTimeout(timer);
  }, [live, until]);
  return live;
}
