import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { useCurrentUser } from '../../auth/auth-store.ts';
import { getOutbox } from '../api/outbox-instance.ts';
import type { Outbox, OutboxEntry } from '../store/outbox.ts';

/** How often pending messages are retried while the socket has not said the connection is back. */
const RETRY_MS = 5000;

export function useOutbox(): Outbox {
  return getOutbox(useQueryClient());
}

export function useOutboxEntries(): readonly OutboxEntry[] {
  const outbox = useOutbox();
  return useSyncExternalStore(
    (onChange) => outbox.subscribe(onChange),
    () => outbox.list(),
  );
}

/**
 * Sends the signed-in user's pending messages: at start (a reload), when the browser says it is
 * online again, and every few seconds while any wait. The socket's reconnect flushes too.
 */
export function useOutboxFlusher(): void {
  const outbox = useOutbox();
  const userId = useCurrentUser()?.id;
  useEffect(() => {
    if (userId === undefined) return;
    const flush = () => void outbox.flush(userId);
    flush();
    window.addEventListener('online', flush);
    const timer = window.setInterval(() => {
      if (outbox.list().some((e) => e.owner_id === userId && e.state === 'pending')) flush();
    }, RETRY_MS);
    return () => {
      window.removeEventListener('online', flush);
      window.clearInterval(timer);
    };
  }, [outbox, userId]);
}
