import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuthStore } from '../features/auth/auth-store.ts';
import { useOutboxFlusher } from '../features/messenger/hooks/use-outbox.ts';
import { whenIdle } from '../shared/lib/when-idle.ts';
import { createSocket, useRealtime } from '../shared/realtime/socket.ts';
import { features } from './features.ts';

/**
 * Keeps one socket open while a user and token exist and writes its events into the query cache. It
 * connects once the page is idle after the first paint: the page's own queries fetch what it shows, and
 * the connect handlers refetch what may have changed before the socket was up.
 */
export function RealtimeBridge() {
  const token = useAuthStore((s) => (s.auth.status === 'signedIn' ? s.auth.token : null));
  const queryClient = useQueryClient();
  useOutboxFlusher();

  useEffect(() => {
    if (!token) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    const connect = () =>
      createSocket(token).then((socket) => {
        if (cancelled) {
          socket.disconnect();
          return;
        }
        useRealtime.setState({ socket, connected: false });
        socket.on('connect', () => useRealtime.setState({ connected: true }));
        socket.on('disconnect', () => useRealtime.setState({ connected: false }));
        const currentUserId = () => {
          const { auth } = useAuthStore.getState();
          return auth.status === 'signedIn' ? auth.user.id : null;
        };
        const detachFeatures = features.map((feature) =>
          feature.realtime?.(socket, queryClient, currentUserId),
        );
        stop = () => {
          for (const detach of detachFeatures) detach?.();
          socket.removeAllListeners();
          socket.disconnect();
          useRealtime.setState({ socket: null, connected: false });
        };
      });
    const cancelIdle = whenIdle(() => void connect());
    return () => {
      cancelled = true;
      cancelIdle();
      stop?.();
    };
  }, [token, queryClient]);

  return null;
}
