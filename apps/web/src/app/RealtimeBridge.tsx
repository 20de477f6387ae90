import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAuthStore } from '../features/auth/auth-store.ts';
import { useOutboxFlusher } from '../features/messenger/hooks/use-outbox.ts';
import { dropBootResponses } from '../shared/api/boot-responses.ts';
import { whenIdle } from '../shared/lib/when-idle.ts';
import { noteConnect } from '../shared/realtime/refetch-missed.ts';
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
  // A token found at the page's start has had its data loading since then; one signed in later, since then.
  const signedOutBefore = useRef(false);
  if (!token) signedOutBefore.current = true;
  useOutboxFlusher();

  useEffect(() => {
    if (!token) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    const dataSince = signedOutBefore.current ? performance.now() : 0;
    // The features' handlers load first, so each is attached before the socket's first event can arrive.
    const connect = () =>
      Promise.all(features.map((feature) => feature.realtime?.())).then(async (attaches) => {
        if (cancelled) return;
        const socket = await createSocket(token, { dataSince });
        if (cancelled) {
          socket.disconnect();
          return;
        }
        useRealtime.setState({ socket, connected: false });
        socket.on('connect', () => {
          noteConnect(socket);
          // The connect handlers below refetch what the socket may have missed: from the server, not from
          // an answer the boot script fetched at the page's start (past the start).
          dropBootResponses();
          useRealtime.setState({ connected: true });
        });
        socket.on('disconnect', () => useRealtime.setState({ connected: false }));
        const currentUserId = () => {
          const { auth } = useAuthStore.getState();
          return auth.status === 'signedIn' ? auth.user.id : null;
        };
        const detachFeatures = attaches.map((attach) => attach?.(socket, queryClient, currentUserId));
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
