import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';
import { Limits } from '../limits.ts';
import { MediaRole } from '../livekit/schemas.ts';

/** Spec §3 "Guest" user: the short user form streams and guests carry. */
export const LiveStreamUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  display_name: Type.String(),
  avatar_url: Nullable(Type.String()),
});
export type LiveStreamUser = Static<typeof LiveStreamUser>;

/** Spec §3 "Guest". */
export const LiveStreamGuest = Type.Object({
  user_id: Type.Integer(),
  user: LiveStreamUser,
  added_at: IsoDateTime,
  /** The host let this guest moderate the chat (delete lines, mute and ban viewers). */
  moderator: Type.Boolean(),
});
export type LiveStreamGuest = Static<typeof LiveStreamGuest>;

export const LiveStreamStatus = Type.Union([Type.Literal('live'), Type.Literal('ended')]);
export type LiveStreamStatus = Static<typeof LiveStreamStatus>;

/** Spec §3 "Live stream". */
export const LiveStream = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  user_id: Type.Integer(),
  user: LiveStreamUser,
  /** The host's avatar (spec: "user avatar_url"). */
  avatar_url: Nullable(Type.String()),
  room_name: Type.String(),
  status: LiveStreamStatus,
  /** Everyone present in the media room but the host, as LiveKit's webhooks reported it. */
  viewer_count: Type.Integer({ minimum: 0 }),
  guests: Type.Array(LiveStreamGuest),
  /** Slow mode: each viewer may send one chat line per this many seconds (0: off; host and moderators exempt). */
  slow_mode_seconds: Type.Integer({ minimum: 0 }),
  started_at: IsoDateTime,
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
  ended_at: Nullable(IsoDateTime),
});
export type LiveStream = Static<typeof LiveStream>;

export const LiveStreamCreateBody = Type.Object({
  title: Type.Optional(Type.String({ maxLength: Limits.streamTitle })),
});
export type LiveStreamCreateBody = Static<typeof LiveStreamCreateBody>;

export const LiveStreamActiveQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Limits.activeStreams, default: Limits.activeStreams }),
  ),
});

export const LiveStreamActiveResponse = Type.Object({ streams: Type.Array(LiveStream) });
export type LiveStreamActiveResponse = Static<typeof LiveStreamActiveResponse>;

export const LiveStreamParams = Type.Object({ id: Id });
export const LiveStreamGuestParams = Type.Object({ id: Id, userId: Id });

export const LiveStreamGuestBody = Type.Object({ user_id: Id });
export type LiveStreamGuestBody = Static<typeof LiveStreamGuestBody>;

/** Spec §3 "Stream token response" (the media plane's token answer). */
export const LiveStreamToken = Type.Object({
  server_url: Type.String(),
  access_token: Type.String(),
  role: MediaRole,
});
export type LiveStreamToken = Static<typeof LiveStreamToken>;

/**
 * Spec §3 "Live chat message": a stored line, sent by the server only (never over the media plane); the
 * sender's id and name are the server's, from the session that sent it.
 */
export const LiveChatMessage = Type.Object({
  /** The line's id (`live_chat_messages.id`): what moderation deletes and reports. */
  id: Type.Integer(),
  type: Type.Literal('live-stream-message'),
  stream_id: Type.Integer(),
  content: Type.String(),
  sender_id: Type.Integer(),
  sender_name: Type.String(),
  timestamp: IsoDateTime,
  temp_id: Type.String(),
});
export type LiveChatMessage = Static<typeof LiveChatMessage>;

/** The joining user's own standing in the stream's chat. */
export const LiveChatStanding = Type.Object({
  muted: Type.Boolean(),
  /** The host or a guest the host made a moderator. */
  can_moderate: Type.Boolean(),
});
export type LiveChatStanding = Static<typeof LiveChatStanding>;

/** What a viewer gets on joining: the stream and the last chat messages (late joiners see them). */
export const LiveStreamJoinResponse = Type.Object({
  stream: LiveStream,
  messages: Type.Array(LiveChatMessage),
  chat: LiveChatStanding,
});
export type LiveStreamJoinResponse = Static<typeof LiveStreamJoinResponse>;

export const LiveStreamEndResponse = Type.Object({ stream: LiveStream });
export type LiveStreamEndResponse = Static<typeof LiveStreamEndResponse>;

/** Sent by a client on the socket as `live-stream-message` (spec §7.6 "Out"). */
export const LiveChatInput = Type.Object({
  stream_id: Id,
  content: Type.String({ maxLength: 2000 }),
  temp_id: Type.String({ minLength: 1, maxLength: 64 }),
});
export type LiveChatInput = Static<typeof LiveChatInput>;

export const LiveChatLineParams = Type.Object({ id: Id, messageId: Id });
export const LiveChatUserBody = Type.Object({ user_id: Id });
export type LiveChatUserBody = Static<typeof LiveChatUserBody>;

/** Slow mode choices offered by the app; the server accepts any whole number of seconds up to the limit. */
export const LIVE_SLOW_MODE_MAX_SECONDS = 600;
export const LiveStreamSlowModeBody = Type.Object({
  seconds: Type.Integer({ minimum: 0, maximum: LIVE_SLOW_MODE_MAX_SECONDS }),
});
export type LiveStreamSlowModeBody = Static<typeof LiveStreamSlowModeBody>;

export const LiveStreamModeratorBody = Type.Object({ moderator: Type.Boolean() });
export type LiveStreamModeratorBody = Static<typeof LiveStreamModeratorBody>;

/** Messages kept per stream for late joiners. */
export const LIVE_CHAT_HISTORY = 100;

export const LiveStreamErrorCode = {
  alreadyLive: 'stream_already_live',
  streamEnded: 'stream_ended',
  guestLimit: 'guest_limit',
  guestDuplicate: 'guest_duplicate',
  guestIsHost: 'guest_is_host',
  chatInvalid: 'chat_invalid',
  chatMuted: 'chat_muted',
  chatSlowMode: 'chat_slow_mode',
  banned: 'stream_banned',
  moderationTargetHost: 'moderation_target_host',
} as const;

export const LiveStreamErrorText = {
  streamNotFound: 'Эфир не найден',
  streamEnded: 'Эфир завершён',
  alreadyLive: (title: string) => `У вас уже идёт эфир «${title || 'Без названия'}»`,
  titleTooLong: `Название эфира: не более ${Limits.streamTitle} символов`,
  hostOnly: 'Управлять эфиром может только его автор',
  guestLimit: `Максимальное количество гостей: ${Limits.guestsPerStream}`,
  guestDuplicate: 'Этот пользователь уже является гостем',
  guestIsHost: 'Автор эфира не может быть гостем',
  guestNotFound: 'Гость не найден',
  chatInvalid: `Сообщение: от 1 до ${Limits.liveChatMessage} символов`,
  chatMuted: 'Автор эфира ограничил вам чат',
  chatSlowMode: (seconds: number) => `Медленный режим: следующее сообщение через ${seconds} с`,
  banned: 'Автор эфира закрыл вам доступ к эфиру',
  moderatorOnly: 'Управлять чатом могут только автор эфира и модераторы',
  moderationTargetHost: 'Нельзя ограничить автора эфира',
  messageNotFound: 'Сообщение не найдено',
} as const;
