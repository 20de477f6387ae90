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

/** How the viewer stands towards a private account (all false for a public one). */
export interface ProfileAccess {
  is_private: boolean;
  is_requested: boolean;
  can_see_content: boolean;
}

export function toProfile(row: ProfileRow, access: ProfileAccess): Profile {
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
    is_private: access.is_private,
    is_requested: access.is_requested,
    can_see_content: access.can_see_content,
    last_seen: row.last_seen ? new Date(row.last_seen).toISOString() : null,
  };
}
