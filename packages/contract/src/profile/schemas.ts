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
  followers_count: Type.Integer(),
});
export type FollowResponse = Static<typeof FollowResponse>;
