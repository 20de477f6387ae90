/**
 * Messenger: personal chats and favorites (spec §2.6, §3 chat list item / message / message file,
 * §4.11, §5 chat message, §6, §7.5, §7.6). Groups and channels slot in later through `type`,
 * the optional `group_*` / `channel_*` fields and `ChatTarget.group_id`.
 *
 * Chats are addressed the way the chat list names them: a personal chat by the peer's user id
 * (`other_user_id` / `chat_user_id`), favorites (saved messages with oneself) by `is_favorites: true`
 * or by `other_user_id` equal to one's own id.
 *
 * Routes in `routes.ts`, limits in `../limits.ts` (`Limits.messages*`),
 * error texts in `errors.ts`, realtime events in `realtime.ts`.
 */
import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';
import { Limits } from '../limits.ts';
import { MessageReaction } from './reactions.ts';

export const ChatType = Type.Union([
  Type.Literal('personal'),
  Type.Literal('group'),
  Type.Literal('channel'),
]);
export type ChatType = Static<typeof ChatType>;

/**
 * `text`: plain or markdown text only; `media`: carries `files[]` (text optional); `call`: the entry a
 * call leaves in the personal chat (written by the server, text like 'Исходящий звонок · 3:12', not editable);
 * `service`: a line the server writes into a group when someone joins, leaves or is removed (text from
 * `groups/service-lines.ts`, shown centred, never edited, forwarded or answered).
 */
export const MessageType = Type.Union([
  Type.Literal('text'),
  Type.Literal('media'),
  Type.Literal('call'),
  Type.Literal('service'),
]);
export type MessageType = Static<typeof MessageType>;

export const MessageFileType = Type.Union([
  Type.Literal('photo'),
  Type.Literal('image'),
  Type.Literal('gif'),
  Type.Literal('video'),
  Type.Literal('document'),
  Type.Literal('voice'),
]);
export type MessageFileType = Static<typeof MessageFileType>;

/**
 * One attachment of a message (spec §3 "Message file"). `photo` is a still image re-encoded by
 * the server; `gif` keeps its animation; `video` is H.264 MP4 with a poster in `thumbnail_url`;
 * `document` is any other file, stored as is. `image` is accepted from legacy data and never produced.
 */
export const MessageFile = Type.Object({
  file_type: MessageFileType,
  file_url: Type.String(),
  thumbnail_url: Nullable(Type.String()),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  /** Seconds, for video. */
  duration: Nullable(Type.Number()),
  /** Bytes of the stored file. */
  file_size: Type.Integer(),
  file_name: Nullable(Type.String()),
  /**
   * Photos, GIFs and videos are processed by the job queue after upload: 'processing' until then (`file_url`
   * is empty), 'failed' when the file could not be processed. A `message-edited` event follows the change.
   */
  status: Type.Optional(
    Type.Union([Type.Literal('processing'), Type.Literal('ready'), Type.Literal('failed')]),
  ),
  /**
   * `voice` only: bar heights 0–100 computed by the server from the audio (empty while processing). A voice
   * message is AAC in MP4 (`.m4a`), `duration` in seconds.
   */
  waveform: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 100 }), { maxItems: 128 })),
});
export type MessageFile = Static<typeof MessageFile>;

/** An uploaded attachment not yet sent: `POST /messages/attachments` answers with these; send by `id`. */
export const MessageAttachment = Type.Intersect([Type.Object({ id: Type.Integer() }), MessageFile]);
export type MessageAttachment = Static<typeof MessageAttachment>;
export const AttachmentsResponse = Type.Object({ files: Type.Array(MessageAttachment) });
export type AttachmentsResponse = Static<typeof AttachmentsResponse>;

/** The quoted original of a reply. */
export const ReplyPreview = Type.Object({
  id: Type.Integer(),
  sender_id: Type.Integer(),
  sender_name: Type.String(),
  /** The start of the text (empty when deleted). */
  content: Type.String(),
  message_type: MessageType,
  is_deleted: Type.Boolean(),
});
export type ReplyPreview = Static<typeof ReplyPreview>;

/**
 * A message as the reader sees it. `is_read`/`is_delivered` describe the recipient's state
 * (for one's own messages: has the peer read / received it; for favorites: always true).
 */
/** The story a message replies to (a story reply); `expired` once the story is gone (24 h, deleted). */
export const MessageStoryRef = Type.Object({
  id: Type.Integer(),
  media_type: Type.Union([Type.Literal('video'), Type.Literal('photo')]),
  media_url: Nullable(Type.String()),
  thumbnail_url: Nullable(Type.String()),
  expired: Type.Boolean(),
});
export type MessageStoryRef = Static<typeof MessageStoryRef>;

export const Message = Type.Object({
  id: Type.Integer(),
  sender_id: Type.Integer(),
  /** Display name. */
  sender_name: Type.String(),
  sender_avatar_url: Nullable(Type.String()),
  /** The sender's @username. */
  sender_username: Type.String(),
  content: Type.String(),
  created_at: IsoDateTime,
  is_read: Type.Boolean(),
  is_delivered: Type.Boolean(),
  is_edited: Type.Boolean(),
  /** ISO time of the last edit, null if never edited. */
  edited_at: Nullable(IsoDateTime),
  is_forwarded: Type.Boolean(),
  /** @username of the original author of a forwarded message. */
  forwarded_from_username: Nullable(Type.String()),
  files: Type.Array(MessageFile),
  message_type: MessageType,
  /** Set on a reply to a story. */
  story: Type.Optional(MessageStoryRef),
  /** The client's temporary id, echoed to the sender's own devices only. */
  temp_id: Type.Optional(Type.String()),
  /** The message this one answers (any chat kind); `is_deleted` when the original was deleted for everyone. */
  reply_to: Type.Optional(Nullable(ReplyPreview)),
  /** Channel posts: how many subscribers have seen it. */
  views_count: Type.Optional(Type.Integer()),
  /** Reactions with counts and who reacted; absent or empty when there are none. */
  reactions: Type.Optional(Type.Array(MessageReaction)),
});
export type Message = Static<typeof Message>;

/** A chat's pinned message as the bar at the top of the chat shows it (the start of its text). */
export const PinnedMessage = Type.Object({
  id: Type.Integer(),
  sender_id: Type.Integer(),
  sender_name: Type.String(),
  /** The start of the text (at most `Limits.messagePreviewChars`). */
  content: Type.String(),
  message_type: MessageType,
  /** The first attachment's kind, for a message without text ('Фото', 'Голосовое сообщение'). */
  file_type: Type.Optional(MessageFileType),
});
export type PinnedMessage = Static<typeof PinnedMessage>;

export const LastMessage = Type.Object({
  /** The start of the text (at most `Limits.messagePreviewChars`; the list shows 50). */
  content: Type.String(),
  sender_id: Type.Integer(),
  /** The sender's @username. */
  sender_username: Type.String(),
  is_read: Type.Boolean(),
  is_delivered: Type.Boolean(),
  created_at: IsoDateTime,
  message_type: MessageType,
  /** The first attachment's kind, so the list can say 'Голосовое сообщение' or 'Фото' for a message without text. */
  file_type: Type.Optional(MessageFileType),
});
export type LastMessage = Static<typeof LastMessage>;

export const GroupData = Type.Object({
  name: Type.String(),
  memberCount: Type.Optional(Type.Integer()),
});
export const ChannelData = Type.Object({
  id: Type.Integer(),
  subscribers_count: Type.Integer(),
  is_subscribed: Type.Boolean(),
  can_post: Type.Boolean(),
});

/**
 * One row of the chat list (spec §3). Personal chats and favorites have `type: 'personal'`;
 * favorites carry `is_favorites: true` and `user_id` = one's own id.
 */
export const ChatListItem = Type.Object({
  type: ChatType,
  /** The peer's user id (personal), or the group / channel id. */
  user_id: Type.Integer(),
  /** Display name of the peer, group or channel (spec: "username (display name)"). */
  username: Type.String(),
  /** The peer's @username (personal chats), for /messenger/{username} and the profile panel. */
  profile_username: Type.Optional(Type.String()),
  avatar_url: Nullable(Type.String()),
  avatar_thumbnail_url: Nullable(Type.String()),
  is_favorites: Type.Boolean(),
  is_pinned: Type.Boolean(),
  /** Ascending: a smaller pin_order is shown higher; a new pin goes last. Null when not pinned. */
  pin_order: Nullable(Type.Integer()),
  unread_count: Type.Integer(),
  last_message: Nullable(LastMessage),
  /** Time of the last message, or of the chat's creation while it has none. */
  last_time: IsoDateTime,
  /** The peer's last disconnect (personal chats); null while never seen, for favorites and groups. */
  last_seen: Nullable(IsoDateTime),
  group_id: Type.Optional(Type.Integer()),
  group_data: Type.Optional(GroupData),
  channel_id: Type.Optional(Type.Integer()),
  channel_data: Type.Optional(ChannelData),
  /** The chat's pinned message (one per chat, as the bar at the top shows it); absent when none. */
  pinned_message: Type.Optional(PinnedMessage),
});
export type ChatListItem = Static<typeof ChatListItem>;

/** Order: favorites first, then pinned by pin_order, then by last_time, newest first (spec §4.11). */
export const ChatsResponse = Type.Object({
  chats: Type.Array(ChatListItem),
  /** Set when paged (`limit` given) and more chats follow. */
  has_more: Type.Optional(Type.Boolean()),
});
/** Optional paging of the chat list; without `limit` the whole list comes at once. */
export const ChatsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
export type ChatsQuery = Static<typeof ChatsQuery>;
export type ChatsResponse = Static<typeof ChatsResponse>;

export const ChatSearchQuery = Type.Object({
  q: Type.String({ maxLength: Limits.userSearch.queryMax }),
});

/**
 * Paging from the newest end: `offset` = how many of the newest messages the client already holds
 * (0 first with limit 30, then 20 at offset = count loaded). Each page's `messages` are in
 * chronological order (oldest first), ready to prepend. `has_more` says older ones remain.
 * Reading a conversation also counts as the reader's device receiving it (delivery receipt).
 */
export const ConversationQuery = Type.Object({
  other_user_id: Id,
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Limits.messagesPageMax, default: Limits.messagesInitial }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
export type ConversationQuery = Static<typeof ConversationQuery>;
/**
 * Why the reader may not write in a chat now (the peer accepts messages only from people they follow, a
 * block either way): the refusal a send would get, told before anything is typed, as Telegram does.
 */
export const WriteRestriction = Type.Object({
  code: Type.String(),
  /** The Russian reason, shown in place of the message field. */
  error: Type.String(),
});
export type WriteRestriction = Static<typeof WriteRestriction>;

export const ConversationResponse = Type.Object({
  messages: Type.Array(Message),
  has_more: Type.Boolean(),
  /** A personal chat only: present when the reader may not write to the peer now ("can I write here"). */
  write_restriction: Type.Optional(WriteRestriction),
});
export type ConversationResponse = Static<typeof ConversationResponse>;

/**
 * `POST /messages`. Idempotent on (sender, temp_id): a resend with the same temp_id answers the
 * message already stored and creates nothing. Content may be empty only with attachments.
 * `other_user_id` equal to one's own id sends to favorites.
 */
export const SendMessageBody = Type.Object(
  {
    /** Exactly one of `other_user_id`, `group_id`, `channel_id` names the chat. */
    other_user_id: Type.Optional(Id),
    group_id: Type.Optional(Id),
    /** Channel posts: administrators with `can_post` only. */
    channel_id: Type.Optional(Id),
    /** Answer to a message of the same chat. */
    reply_to_id: Type.Optional(Id),
    content: Type.String({ maxLength: Limits.messageContent }),
    temp_id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_:.-]+$' }),
    /** Ids from `POST /messages/attachments`, in display order. */
    attachment_ids: Type.Optional(Type.Array(Id, { maxItems: Limits.messageFilesMax })),
  },
  { additionalProperties: false },
);
export type SendMessageBody = Static<typeof SendMessageBody>;
export const MessageResponse = Type.Object({ message: Message });
export type MessageResponse = Static<typeof MessageResponse>;

export const MessageIdParams = Type.Object({ id: Id });

/** `PATCH /messages/{id}`: own messages under one hour old (`Limits.messageEditWindowMs`). */
export const EditMessageBody = Type.Object(
  { content: Type.String({ maxLength: Limits.messageContent }) },
  { additionalProperties: false },
);
export type EditMessageBody = Static<typeof EditMessageBody>;

export const DeleteScope = Type.Union([Type.Literal('me'), Type.Literal('everyone')]);
export type DeleteScope = Static<typeof DeleteScope>;
/** `DELETE /messages/{id}?for=me|everyone` (default me). Only the author deletes for everyone. */
export const DeleteMessageQuery = Type.Object({ for: Type.Optional(DeleteScope) });
export const DeleteMessageResponse = Type.Object({ id: Type.Integer(), for: DeleteScope });
export type DeleteMessageResponse = Static<typeof DeleteMessageResponse>;

/** A chat named the §7.5 way: favorites, a personal chat by peer id, or (later) a group. */
export const ChatTarget = Type.Union([
  Type.Object({ is_favorites: Type.Literal(true) }, { additionalProperties: false }),
  Type.Object({ chat_user_id: Id }, { additionalProperties: false }),
  Type.Object({ group_id: Id }, { additionalProperties: false }),
  Type.Object({ channel_id: Id }, { additionalProperties: false }),
]);
export type ChatTarget = Static<typeof ChatTarget>;

/** `POST` / `DELETE /messages/chat-pin` body (spec §7.5). */
export const ChatPinBody = ChatTarget;
export const ChatPinResponse = Type.Object({
  is_pinned: Type.Boolean(),
  pin_order: Nullable(Type.Integer()),
});
export type ChatPinResponse = Static<typeof ChatPinResponse>;

/** `DELETE /messages/chat`: removes the chat and its history for oneself. Favorites cannot be deleted. */
export const DeleteChatBody = ChatTarget;
export const ChatDeletedResponse = Type.Object({ ok: Type.Literal(true) });

/** `POST /messages/forward`: copies each message (oldest first) into each target chat. */
export const ForwardBody = Type.Object(
  {
    message_ids: Type.Array(Id, { minItems: 1, maxItems: Limits.forwardMessagesMax }),
    targets: Type.Array(ChatTarget, { minItems: 1, maxItems: Limits.forwardTargetsMax }),
  },
  { additionalProperties: false },
);
export type ForwardBody = Static<typeof ForwardBody>;
export const ForwardResponse = Type.Object({ messages: Type.Array(Message) });
export type ForwardResponse = Static<typeof ForwardResponse>;

/** `POST /messages/read`: the reader opened the chat; everything in it up to now is read. */
export const MarkReadBody = Type.Object({ other_user_id: Id }, { additionalProperties: false });
export const MarkReadResponse = Type.Object({
  up_to_message_id: Type.Integer(),
  unread_count: Type.Integer(),
});
export type MarkReadResponse = Static<typeof MarkReadResponse>;

/** `POST /messages/delivered`: HTTP twin of the socket ack `message-delivered`. */
export const DeliveredBody = Type.Object(
  { message_ids: Type.Array(Id, { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);
export type DeliveredBody = Static<typeof DeliveredBody>;
export const DeliveredResponse = ChatDeletedResponse;

/** `GET /messages/search?q=`: full text over one's own chats, Russian word forms matched. */
export const MessageSearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 200 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
export type MessageSearchQuery = Static<typeof MessageSearchQuery>;

/** Which chat an event or search hit belongs to, from the receiving user's side. */
export const ChatRef = Type.Object({
  type: ChatType,
  /** The peer's user id (personal; one's own id for favorites), or the group / channel id. */
  user_id: Type.Integer(),
  is_favorites: Type.Boolean(),
});
export type ChatRef = Static<typeof ChatRef>;

export const MessageSearchHit = Type.Object({ chat: ChatRef, message: Message });
export const MessageSearchResponse = Type.Object({
  results: Type.Array(MessageSearchHit),
  has_more: Type.Boolean(),
});
export type MessageSearchResponse = Static<typeof MessageSearchResponse>;

// Realtime payloads (typed into ServerToClientEvents / ClientToServerEvents in realtime.ts).

/** `new-message` / `message-edited`: to every device of both sides. */
export interface MessageEvent {
  chat: ChatRef;
  message: Message;
  /**
   * A group's or channel's `new-message`: whether this device should confirm receipt (`message-delivered`).
   * One receiver other than the sender is enough for "delivered", so only a few members are asked; a
   * personal chat's message is always confirmed (the field is absent).
   */
  ack?: true;
}
/** `message-deleted`: `everyone` to both sides; `me` to one's own other devices. */
export interface MessageDeletedEvent {
  chat: ChatRef;
  message_id: number;
  for: DeleteScope;
}
/** `message-delivered` (server → sender): own messages in `chat` up to this id reached a recipient device. */
export interface MessageDeliveredEvent {
  chat: ChatRef;
  up_to_message_id: number;
}
/**
 * `messages-read`: to the sender (the peer read up to this id) and to the reader's own devices
 * (`reader_id` = own id: clear the unread count).
 */
export interface MessagesReadEvent {
  chat: ChatRef;
  reader_id: number;
  up_to_message_id: number;
}
/** `chat-updated`: to one's own devices after a pin, unpin or chat deletion. */
export interface ChatUpdatedEvent {
  chat: ChatRef;
  change: 'pinned' | 'unpinned' | 'deleted';
  pin_order: number | null;
}
/** `typing` (server → client, spec §3): show "печатает..." for `Limits.typingMs` unless renewed. */
export interface TypingEvent {
  sender_id: number;
  type: 'typing' | 'group-typing';
  group_id?: number;
  /** The typist's display name (group typing: "<name> печатает..."). */
  sender_name?: string;
  data: { is_typing: boolean };
}
/** `typing` (client → server): relayed to the peer, rate-limited. */
export interface TypingInput {
  other_user_id?: number;
  group_id?: number;
  is_typing: boolean;
}
/** `message-delivered` (client → server): a device received these messages; ack answers `{ ok }`. */
export interface DeliveredInput {
  message_ids: number[];
}
/**
 * `send-message` (client → server): the socket twin of `POST /messages` — the same `SendMessageBody`,
 * rules and idempotency on (sender, temp_id); `new-message` goes out exactly as after the HTTP send.
 * The ack answers what the HTTP route would: the stored message, or its error body with the status.
 */
export type SendMessageResult =
  | { ok: true; message: Message }
  | {
      ok: false;
      status: number;
      error: string;
      code: string;
      fields?: Record<string, string>;
      /** Seconds to wait, on a 429 (what `Retry-After` says over HTTP). */
      retry_after?: number;
    };

/** `GET /messages/{id}/around`: a window of a chat's history around one message (a search hit, a pin). */
export const AroundQuery = Type.Object({
  /** Messages in the window, the target included: about half older, half newer. */
  limit: Type.Optional(Type.Integer({ minimum: 2, maximum: Limits.messagesPageMax, default: 30 })),
});
export const AroundResponse = Type.Object({
  chat: ChatRef,
  /** Chronological (oldest first); the target message is among them. */
  messages: Type.Array(Message),
  /** Older messages exist before the window. */
  has_older: Type.Boolean(),
  /** Newer messages exist after the window (the window is not at the chat's newest end). */
  has_newer: Type.Boolean(),
});
export type AroundResponse = Static<typeof AroundResponse>;

/** `PUT` / `DELETE /messages/{id}/pin`: the chat's pinned message after the change (null: none). */
export const MessagePinResponse = Type.Object({ chat: ChatRef, pinned_message: Nullable(PinnedMessage) });
export type MessagePinResponse = Static<typeof MessagePinResponse>;

/** `message-pinned`: to every member after a message is pinned or unpinned (`pinned_message` null). */
export interface MessagePinnedEvent {
  chat: ChatRef;
  pinned_message: PinnedMessage | null;
}

/**
 * `GET /messages/shared-media`: a chat's attachments for «Медиа из чата», newest first. The chat is named
 * like a send (exactly one of `other_user_id` — own id for favorites —, `group_id`, `channel_id`);
 * members only. `kind`: photos, GIFs and videos (`media`), or documents and voice messages (`files`).
 */
export const SharedMediaQuery = Type.Object(
  {
    other_user_id: Type.Optional(Id),
    group_id: Type.Optional(Id),
    channel_id: Type.Optional(Id),
    kind: Type.Union([Type.Literal('media'), Type.Literal('files')]),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 60 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);
export type SharedMediaQuery = Static<typeof SharedMediaQuery>;
export const SharedMediaItem = Type.Object({
  message_id: Type.Integer(),
  sender_id: Type.Integer(),
  created_at: IsoDateTime,
  file: MessageFile,
});
export type SharedMediaItem = Static<typeof SharedMediaItem>;
export const SharedMediaResponse = Type.Object({
  items: Type.Array(SharedMediaItem),
  has_more: Type.Boolean(),
});
export type SharedMediaResponse = Static<typeof SharedMediaResponse>;
