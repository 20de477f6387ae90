import type { ClientToServerEvents, ServerToClientEvents, SocketAuth } from '@kadr/contract';
import { SOCKET_PATH } from '@kadr/contract/browser';
import type { Socket } from 'socket.io-client';
import { create } from 'zustand';
import { PAGE_ID } from '../api/page-id.ts';

export type KadrSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A typed Socket.IO connection authenticated in the handshake; websocket first, polling as fallback.
 * The client library loads with the first socket, so the sign-in pages never download it. Until it first
 * connects, the handshake also says how long ago the page's data began to load (`dataSince`, on the page's
 * clock), and the server answers `missed`: what went by before the socket was there. Every handshake names the
 * page (`PAGE_ID`, as its writes do).
 */
export async function createSocket(
  token: string,
  { url, dataSince = 0 }: { url?: string; dataSince?: number } = {},
): Promise<KadrSocket> {
  const { io } = await import('socket.io-client');
  let connectedOnce = false;
  const options = {
    path: SOCKET_PATH,
    transports: ['websocket', 'polling'],
    // The page id on every connection: a message this page sends over HTTP is not echoed to its own socket.
    auth: (send: (auth: SocketAuth) => void) =>
      send(
        connectedOnce
          ? { token, page: PAGE_ID }
          : { token, age: Math.round(performance.now() - dataSince), page: PAGE_ID },
      ),
    reconnectionDelayMax: 10_000,
  };
  const socket: KadrSocket = url ? io(url, options) : io(options);
  socket.once('connect', () => {
    connectedOnce = true;
  });
  return socket;
}

interface RealtimeStore {
  socket: KadrSocket | null;
  connected: boolean;
}

/** The live socket (if any) for hooks that emit, and whether it is connected. */
export const useRealtime = create<RealtimeStore>(() => ({ socket: null, connected: false }));

/**
 * The socket once it is connected, waiting at most `ms` for it: a page opened a moment ago connects its socket
 * when the browser is idle, and what the person does first (a chat line) should wait for it, not fail.
 */
export function connectedSocket(ms: number): Promise<KadrSocket | null> {
  const current = useRealtime.getState();
  if (current.socket && current.connected) return Promise.resolve(current.socket);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve(null);
    }, ms);
    const stop = useRealtime.subscribe(({ socket, connected }) => {
      if (!socket || !connected) return;
      clearTimeout(timer);
      stop();
      resolve(socket);
    });
  });
}
