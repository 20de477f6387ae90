import { type Static, Type } from 'typebox';
import { IsoDateTime, Nullable } from './common.ts';
import { Limits } from './limits.ts';

export const Username = Type.String({
  minLength: Limits.username.min,
  maxLength: Limits.username.max,
  pattern: Limits.username.pattern,
});

/** The short form of a user that lists, messages and events carry. */
export const UserSummary = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  avatar_url: Nullable(Type.String()),
  avatar_thumbnail_url: Nullable(Type.String()),
});
export type UserSummary = Static<typeof UserSummary>;

/** The signed-in user as `me` and the auth answers return it. */
export const Me = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  bio: Type.String(),
  avatar_url: Nullable(Type.String()),
  avatar_thumbnail_url: Nullable(Type.String()),
  created_at: IsoDateTime,
});
export type Me = Static<typeof Me>;
