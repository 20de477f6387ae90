/**
 * Channels (spec §2.6, §3 channel fields and chat list `channel_data`, §4.11 subscribe / unsubscribe /
 * delete, §5 channel input and mention links, §6 channel roles, §7.5). A channel is a chat whose id
 * the chat list, `ChatRef`, `ChatTarget.channel_id` and `POST /messages` (`channel_id`) use. Only
 * administrators with `can_post` publish; the owner adds and removes administrators.
 */
import { type Static, Type } from 'typebox';
import { Id, IsoDateTime, Nullable } from '../common.ts';
import { ChatSlug, GroupDescription, GroupName } from '../groups/schemas.ts';
import { Message } from '../messenger/schemas.ts';

export const ChannelRole = Type.Union([
  Type.Literal('owner'),
  Type.Literal('admin'),
  Type.Literal('subscriber'),
]);
export type ChannelRole = Static<typeof ChannelRole>;

export const Channel = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** The mention link's path: 5+ letters, digits, `_` or `-`. */
  slug: Type.String(),
  description: Type.String(),
  avatar_url: Nullable(Type.String()),
  is_public: Type.Boolean(),
  subscribers_count: Type.Integer(),
  is_subscribed: Type.Boolean(),
  can_post: Type.Boolean(),
  /** The caller's role; null when not subscribed. */
  role: Nullable(ChannelRole),
  owner_id: Type.Integer(),
  created_at: IsoDateTime,
  last_post: Nullable(Type.String()),
  last_post_time: Nullable(IsoDateTime),
});
export type Channel = Static<typeof Channel>;
export const ChannelsResponse = Type.Object({ channels: Type.Array(Channel) });
export type ChannelsResponse = Static<typeof ChannelsResponse>;

export const ChannelIdParams = Type.Object({ id: Id });
export const ChannelMemberParams = Type.Object({ id: Id, userId: Id });

export const CreateChannelBody = Type.Object(
  {
    name: GroupName,
    slug: ChatSlug,
    description: Type.Optional(GroupDescription),
    is_public: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);
export type CreateChannelBody = Static<typeof CreateChannelBody>;

export const ChannelAdmin = Type.Object({
  user_id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
  role: Type.Union([Type.Literal('owner'), Type.Literal('admin')]),
  can_post: Type.Boolean(),
  can_edit_others: Type.Boolean(),
  can_delete_others: Type.Boolean(),
});
export type ChannelAdmin = Static<typeof ChannelAdmin>;
export const ChannelAdminsResponse = Type.Object({
  admins: Type.Array(ChannelAdmin),
  /**
   * On appointing: those asked by invitation (someone not yet an administrator becomes one only by
   * accepting it, «Приглашения»); an administrator already gets the new rights at once.
   */
  invited: Type.Optional(Type.Array(Type.Integer())),
});
export type ChannelAdminsResponse = Static<typeof ChannelAdminsResponse>;

/** Invites an administrator (subscribed on accepting) or changes an administrator's rights. */
export const AddAdminBody = Type.Object(
  {
    user_id: Id,
    can_post: Type.Boolean(),
    can_edit_others: Type.Boolean(),
    can_delete_others: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type AddAdminBody = Static<typeof AddAdminBody>;

/** An administrator's rights, changed in place (the owner's are fixed). */
export const AdminRightsBody = Type.Object(
  {
    can_post: Type.Boolean(),
    can_edit_others: Type.Boolean(),
    can_delete_others: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type AdminRightsBody = Static<typeof AdminRightsBody>;

export const ChannelSubscriber = Type.Object({
  user_id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
  role: ChannelRole,
});
export const ChannelSubscribersQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
export const ChannelSubscribersResponse = Type.Object({
  subscribers: Type.Array(ChannelSubscriber),
  has_more: Type.Boolean(),
});
export type ChannelSubscribersResponse = Static<typeof ChannelSubscribersResponse>;

export const ChannelPostsQuery = ChannelSubscribersQuery;
/** Posts newest-last within the page, like a conversation page; `views_count` on each. */
export const ChannelPostsResponse = Type.Object({ messages: Type.Array(Message), has_more: Type.Boolean() });
export type ChannelPostsResponse = Static<typeof ChannelPostsResponse>;

/** `channel-updated`: to the channel's room (and to the affected user's own devices). */
export interface ChannelUpdatedEvent {
  channel_id: number;
  change: 'updated' | 'subscribed' | 'unsubscribed' | 'admin-changed' | 'deleted';
  user_id?: number;
}
