import type { Me, UserSummary } from '@kadr/contract';
import type { UserRow } from '../../db/schema.ts';

export function toMe(row: UserRow): Me {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    bio: row.bio,
    avatar_url: row.avatar_url,
    avatar_thumbnail_url: row.avatar_thumbnail_url,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export function toUserSummary(
  row: Pick<UserRow, 'id' | 'username' | 'name' | 'avatar_url' | 'avatar_thumbnail_url'>,
): UserSummary {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    avatar_url: row.avatar_url,
    avatar_thumbnail_url: row.avatar_thumbnail_url,
  };
}
