import type { ClientToServerEvents, ServerToClientEvents } from '@kadr/contract';
import { SOCKET_PATH } from '@kadr/contract/browser';
import type { Socket } from 'socket.io-client';
import { create } from 'zustand';

export type KadrSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * A typed Socket.IO connection authenticated in the handshake; websocket first, polling as fallback.
 * The client library loads with the first socket, so the sign-in pages never download it.
 */
export async function createSocket(token: string, url?: string): Promise<KadrSocket> {
  const { io } = await import('socket.io-client');
  const options = {
    path: SOCKET_PATH,
    transports: ['websocket', 'polling'],
    auth: { token },
    reconnectionDelayMax: 10_000,
  };
  return url ? io(url, options) : io(options);
}

interface RealtimeStore {
  socket: KadrSocket | null;
  connected: boolean;
}

/** The live socket (if any) for hooks that emit, and whether it is connected. */
export const useRealtime = create<RealtimeStore>(() => ({ socket: null, connected: false }));
