import type { Profile } from '@kadr/contract';

export interface ProfileRow {
  id: number;
  username: string;
  name: string;
  bio: string;
  avatar_url: string | null;
  avatar_thumbnail_url: string | null;
  followers_count: number;
  following_count: number;
  posts_count: number;
  last_seen: Date | null;
  is_following: unknown;
}

export function toProfile(row: ProfileRow): Profile {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    avatar_url: row.avatar_url,
    avatar_thumbnail_url: row.avatar_thumbnail_url,
    bio: row.bio,
    followers_count: row.followers_count,
    following_count: row.following_count,
    posts_count: row.posts_count,
    is_following: row.is_following === true,
    last_seen: row.last_seen ? new Date(row.last_seen).toISOString() : null,
  };
}
