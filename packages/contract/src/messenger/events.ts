import type { MessageReactionsEvent } from './reactions.ts';
import type {
  ChatUpdatedEvent,
  DeliveredInput,
  MessageDeletedEvent,
  MessageDeliveredEvent,
  MessageEvent,
  MessagePinnedEvent,
  MessagesReadEvent,
  SendMessageBody,
  SendMessageResult,
  TypingEvent,
  TypingInput,
} from './schemas.ts';

/** The messenger's realtime events, server → client: to every device of both sides unless noted in schemas.ts. */
export interface MessengerServerEvents {
  'new-message': (event: MessageEvent) => void;
  'message-edited': (event: MessageEvent) => void;
  'message-deleted': (event: MessageDeletedEvent) => void;
  'message-delivered': (event: MessageDeliveredEvent) => void;
  'messages-read': (event: MessagesReadEvent) => void;
  'chat-updated': (event: ChatUpdatedEvent) => void;
  'message-reactions': (event: MessageReactionsEvent) => void;
  'message-pinned': (event: MessagePinnedEvent) => void;
  typing: (event: TypingEvent) => void;
}

/** The messenger's realtime events, client → server. */
export interface MessengerClientEvents {
  /** Relayed to the peer as `typing`; rate-limited, no ack. */
  typing: (input: TypingInput) => void;
  /** This device received these messages (sent after `new-message`); the ack is optional. */
  'message-delivered': (input: DeliveredInput, ack?: (result: { ok: boolean }) => void) => void;
  /**
   * Sends a message like `POST /messages` (same body, rules, temp_id idempotency); the ack carries the answer. The
   * socket it came from gets no `new-message` for it (the ack is its copy); the sender's other devices do.
   */
  'send-message': (input: SendMessageBody, ack: (result: SendMessageResult) => void) => void;
}
