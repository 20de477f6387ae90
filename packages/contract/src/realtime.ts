import type { CallsServerToClientEvents } from './calls/events.ts';
import type { ChannelServerEvents } from './channels/events.ts';
import type { GroupServerEvents } from './groups/events.ts';
import type { LiveStreamClientEvents, LiveStreamServerEvents } from './livestreams/events.ts';
import type { MediaServerEvents } from './media/events.ts';
import type { MessengerClientEvents, MessengerServerEvents } from './messenger/events.ts';
import type { NotificationServerEvents } from './notifications/events.ts';
import type { StoryServerEvents } from './stories/events.ts';
import type { VoiceServerEvents } from './voice/events.ts';

/**
 * Socket.IO event maps (spec §3 "Realtime events", §7.6). Both apps type their sockets with these. Each
 * capability keeps its own map in `<capability>/events.ts`; the maps join here through `extends`.
 */

export interface OnlineEvent {
  type: 'online' | 'offline';
  sender_id: number;
  /** ISO time; set on `offline`. */
  last_seen?: string;
}

export interface ServerToClientEvents
  extends MediaServerEvents,
    MessengerServerEvents,
    CallsServerToClientEvents,
    LiveStreamServerEvents,
    GroupServerEvents,
    ChannelServerEvents,
    StoryServerEvents,
    VoiceServerEvents,
    NotificationServerEvents {
  online: (event: OnlineEvent) => void;
}

export interface ClientToServerEvents extends MessengerClientEvents, LiveStreamClientEvents {
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
