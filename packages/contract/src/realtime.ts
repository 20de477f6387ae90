import type { CallsServerToClientEvents } from './calls/events.ts';
import type { ChannelServerEvents } from './channels/events.ts';
import type { GroupServerEvents } from './groups/events.ts';
import type { InvitationServerEvents } from './invitations/events.ts';
import type { LiveStreamClientEvents, LiveStreamServerEvents } from './livestreams/events.ts';
import type { MediaServerEvents } from './media/events.ts';
import type { MessengerClientEvents, MessengerServerEvents } from './messenger/events.ts';
import type { ModerationClientEvents, ModerationServerEvents } from './moderation/events.ts';
import type { NotificationServerEvents } from './notifications/events.ts';
import type { ProfileServerEvents } from './profile/events.ts';
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

/**
 * The answer to a page's first socket connection, whose handshake carries `age` (ms since the page's data
 * began to load): the events the server sent this user since then, which the page may have missed while its
 * socket was not yet connected; `all` when that is further back than the server remembers.
 */
export interface MissedEvents {
  events: string[];
  all: boolean;
}

/** The socket handshake's `auth`: the session token, and on a page's first connection the data's age. */
export interface SocketAuth {
  token: string;
  /** Milliseconds since the page's data began to load; asks for `missed`. */
  age?: number;
  /**
   * The page's id, as its writes send it in `PAGE_HEADER`: what the page did itself is not missed, and a message
   * it sends over HTTP is not echoed to this socket (the HTTP answer carries it).
   */
  page?: string;
}

/** A write's page id (a random id per page load), so the events it causes are known as that page's own. */
export const PAGE_HEADER = 'X-Kadr-Page';

export interface ServerToClientEvents
  extends MediaServerEvents,
    MessengerServerEvents,
    CallsServerToClientEvents,
    LiveStreamServerEvents,
    GroupServerEvents,
    ChannelServerEvents,
    StoryServerEvents,
    VoiceServerEvents,
    NotificationServerEvents,
    ModerationServerEvents,
    InvitationServerEvents,
    ProfileServerEvents {
  online: (event: OnlineEvent) => void;
  missed: (event: MissedEvents) => void;
}

export interface ClientToServerEvents
  extends MessengerClientEvents,
    LiveStreamClientEvents,
    ModerationClientEvents {
  /** Asks whether the given users are online now; answered through the ack. */
  'presence:query': (userIds: number[], ack: (online: number[]) => void) => void;
}

/**
 * Every event a client may send, at run time (for tests that walk them, e.g. the reach policy's table):
 * a key missing here, or one no longer in `ClientToServerEvents`, fails to compile.
 */
export const clientEvents = {
  typing: true,
  'message-delivered': true,
  'send-message': true,
  'live-stream-message': true,
  'live-stream-viewer-join': true,
  'live-stream-viewer-leave': true,
  'presence:query': true,
  'moderation:watch': true,
} as const satisfies Record<keyof ClientToServerEvents, true>;

/** Room names in one place: `user:<id>`, `group:<id>`, `channel:<id>`, `stream:<id>`. */
export const rooms = {
  user: (id: number) => `user:${id}`,
  group: (id: number) => `group:${id}`,
  channel: (id: number) => `channel:${id}`,
  stream: (id: number) => `stream:${id}`,
  /** Moderators whose queue screen is open. */
  moderators: 'moderators',
} as const;

export const SOCKET_PATH = '/socket.io';
