import type { MediaProcessingEvent } from './media.ts';
import type {
  ChatUpdatedEvent,
  DeliveredInput,
  MessageDeletedEvent,
  MessageDeliveredEvent,
  MessageEvent,
  MessagesReadEvent,
  SendMessageBody,
  SendMessageResult,
  TypingEvent,
  TypingInput,
} from './messenger.ts';
import type { StoryServerEvents } from './stories/events.ts';

/** Socket.IO event maps (spec §3 "Realtime events", §7.6). Both apps type their sockets with these. */

export interface OnlineEvent {
  type: 'online' | 'offline';
  sender_id: number;
  /** ISO time; set on `offline`. */
  last_seen?: string;
}

export interface ServerToClientEvents extends StoryServerEvents {
  online: (event: OnlineEvent) => void;
  /** Post processing progress, to the uploader only. */
  'media-processing': (event: MediaProcessingEvent) => void;
  // Messenger (messenger.ts): to every device of both sides unless noted there.
  'new-message': (event: MessageEvent) => void;
  'message-edited': (event: MessageEvent) => void;
  'message-deleted': (event: MessageDeletedEvent) => void;
  'message-delivered': (event: MessageDeliveredEvent) => void;
  'messages-read': (event: MessagesReadEvent) => void;
  'chat-updated': (event: ChatUpdatedEvent) => void;
  typing: (event: TypingEvent) => void;
}

export interface ClientToServerEvents {
  /** Asks whether the given users are online now; answered through the ack. */
  'presence:query': (userIds: number[], ack: (online: number[]) => void) => void;
  /** Relayed to the peer as `typing`; rate-limited, no ack. */
  typing: (input: TypingInput) => void;
  /** This device received these messages (sent after `new-message`); the ack is optional. */
  'message-delivered': (input: DeliveredInput, ack?: (result: { ok: boolean }) => void) => void;
  /** Sends a message like `POST /messages` (same body, rules, temp_id idempotency); the ack carries the answer. */
  'send-message': (input: SendMessageBody, ack: (result: SendMessageResult) => void) => void;
}

/** Room names in one place: `user:<id>`, `group:<id>`, `channel:<id>`, `stream:<id>`. */
export const rooms = {
  user: (id: number) => `user:${id}`,
  group: (id: number) => `group:${id}`,
  channel: (id: number) => `channel:${id}`,
  stream: (id: number) => `stream:${id}`,
} as const;

export const SOCKET_PATH = '/socket.io';
