import type { MediaProcessingEvent } from './media.ts';

/** Socket.IO event maps (spec §3 "Realtime events", §7.6). Both apps type their sockets with these. */

export interface OnlineEvent {
  type: 'online' | 'offline';
  sender_id: number;
  /** ISO time; set on `offline`. */
  last_seen?: string;
}

export interface ServerToClientEvents {
  online: (event: OnlineEvent) => void;
  /** Post processing progress, to the uploader only. */
  'media-processing': (event: MediaProcessingEvent) => void;
}

export interface ClientToServerEvents {
  /** Asks whether the given users are online now; answered through the ack. */
  'presence:query': (userIds: number[], ack: (online: number[]) => void) => void;
}

/** Room names in one place: `user:<id>`, `group:<id>`, `channel:<id>`, `stream:<id>`. */
export const rooms = {
  user: (id: number) => `user:${id}`,
  group: (id: number) => `group:${id}`,
  channel: (id: number) => `channel:${id}`,
  stream: (id: number) => `stream:${id}`,
} as const;

export const SOCKET_PATH = '/socket.io';
