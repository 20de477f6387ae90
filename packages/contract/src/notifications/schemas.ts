import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';
import { Limits } from '../limits.ts';

export const NotificationType = Type.Union([
  Type.Literal('like'),
  Type.Literal('comment'),
  Type.Literal('follow'),
  Type.Literal('repost'),
  Type.Literal('mention'),
  Type.Literal('reply'),
]);
export type NotificationType = Static<typeof NotificationType>;

/** Spec §3 Notification group key: engagement (likes, reposts), follows, comments (comments, mentions, replies). */
export const NotificationGroupKey = Type.Union([
  Type.Literal('engagement'),
  Type.Literal('follows'),
  Type.Literal('comments'),
]);
export type NotificationGroupKey = Static<typeof NotificationGroupKey>;

/**
 * Spec §3 Notification. `username`/`display_name` name the (latest) actor; `text` is the Russian sentence
 * the server built ('Анна и ещё 3 оценили вашу публикацию'); `preview_url` is the post's picture or the
 * actor's avatar; `url` is where a click leads inside the app (/media/{postId}, /{username}, a chat).
 */
export const Notification = Type.Object({
  id: Type.Integer(),
  type: NotificationType,
  text: Type.String(),
  created_at: IsoDateTime,
  is_read: Type.Boolean(),
  username: Type.String(),
  display_name: Type.String(),
  preview_url: Nullable(Type.String()),
  post_id: Nullable(Type.Integer()),
  /** Besides the named actor, how many more people did the same (aggregated likes and reposts). */
  others_count: Type.Integer(),
  url: Type.String(),
  /** A mention or reply in a group or channel: the messenger's chat key (`group:12`, `channel:7`). */
  chat_key: Nullable(Type.String()),
});
export type Notification = Static<typeof Notification>;

/** Spec §3 Notification group: this page's items of the group; `unread_count` over all stored ones. */
export const NotificationGroup = Type.Object({
  key: NotificationGroupKey,
  title: Type.String(),
  items: Type.Array(Notification),
  unread_count: Type.Integer(),
});
export type NotificationGroup = Static<typeof NotificationGroup>;

export const NotificationsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: Limits.notificationsPage })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});

/** The three groups always, in the order engagement, follows, comments; newest first inside each. */
export const NotificationsResponse = Type.Object({
  groups: Type.Array(NotificationGroup),
  unread_total: Type.Integer(),
  has_more: Type.Boolean(),
});
export type NotificationsResponse = Static<typeof NotificationsResponse>;

export const NotificationIdParams = Type.Object({ id: Id });

export const NotificationReadResponse = Type.Object({
  id: Type.Integer(),
  is_read: Type.Boolean(),
  unread_total: Type.Integer(),
});
export type NotificationReadResponse = Static<typeof NotificationReadResponse>;

export const NotificationsReadAllResponse = Type.Object({ unread_total: Type.Integer() });
export type NotificationsReadAllResponse = Static<typeof NotificationsReadAllResponse>;
