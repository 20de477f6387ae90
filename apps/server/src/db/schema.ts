import type { Generated, Insertable, Selectable } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  name: string;
  bio: Generated<string>;
  password_hash: string;
  avatar_url: string | null;
  avatar_thumbnail_url: string | null;
  followers_count: Generated<number>;
  following_count: Generated<number>;
  posts_count: Generated<number>;
  last_seen: Date | null;
  created_at: Generated<Date>;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  user_agent: string | null;
  created_at: Generated<Date>;
  revoked_at: Date | null;
}

export interface FollowsTable {
  follower_id: number;
  followee_id: number;
  created_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  follows: FollowsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
