import { type Static, Type } from 'typebox';
import { Nullable } from '../common.ts';
import { Limits } from '../limits.ts';
import { UserSummary } from '../users.ts';

export const Profile = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
  avatar_thumbnail_url: Nullable(Type.String()),
  bio: Type.String(),
  followers_count: Type.Integer(),
  following_count: Type.Integer(),
  posts_count: Type.Integer(),
  is_following: Type.Boolean(),
  /** «Закрытый аккаунт»: following it is a request the owner accepts. */
  is_private: Type.Boolean(),
  /** The viewer's follow request waits for the owner's answer. */
  is_requested: Type.Boolean(),
  /** The viewer may see the posts, stories and lists (own, public, or a follower of a private account). */
  can_see_content: Type.Boolean(),
  /** ISO time of the last socket disconnect; null while never seen or hidden. */
  last_seen: Nullable(Type.String()),
});
export type Profile = Static<typeof Profile>;

export const UsernameParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 64 }) });

export const UserSearchQuery = Type.Object({
  q: Type.String({ maxLength: Limits.userSearch.queryMax }),
});
export const UserSearchResponse = Type.Object({ users: Type.Array(UserSummary) });
export type UserSearchResponse = Static<typeof UserSearchResponse>;

export const ProfileUpdateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: Limits.displayName.max })),
    bio: Type.Optional(Type.String({ maxLength: Limits.bio.max })),
  },
  { additionalProperties: false },
);
export type ProfileUpdateBody = Static<typeof ProfileUpdateBody>;

export const FollowResponse = Type.Object({
  is_following: Type.Boolean(),
  /** A private account: the follow became a request waiting for the owner. */
  is_requested: Type.Boolean(),
  followers_count: Type.Integer(),
});
export type FollowResponse = Static<typeof FollowResponse>;

/** One person in a follower or following list, with whether the viewer follows them. */
export const FollowListUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
  avatar_thumbnail_url: Nullable(Type.String()),
  is_following: Type.Boolean(),
});
export type FollowListUser = Static<typeof FollowListUser>;

/** Simple paging, newest follow first: `offset` = how many the client already holds. */
export const FollowListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: Limits.followListPage })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});
export type FollowListQuery = Static<typeof FollowListQuery>;

export const FollowListResponse = Type.Object({
  users: Type.Array(FollowListUser),
  has_more: Type.Boolean(),
});
export type FollowListResponse = Static<typeof FollowListResponse>;

/** Follow requests waiting for the signed-in owner of a private account, newest first. */
export const FollowRequestsResponse = Type.Object({
  users: Type.Array(UserSummary),
  has_more: Type.Boolean(),
});
export type FollowRequestsResponse = Static<typeof FollowRequestsResponse>;

export const FollowRequestAnswer = Type.Object({
  accepted: Type.Boolean(),
  followers_count: Type.Integer(),
});
export type FollowRequestAnswer = Static<typeof FollowRequestAnswer>;
