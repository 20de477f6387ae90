import type { Comment, Post, PostFile } from '@kadr/contract';
import type { FileJson, PostRow } from './repository.ts';

export function toPostFile(f: FileJson): PostFile {
  return {
    file_url: f.file_url,
    thumbnail_url: f.thumbnail_url,
    file_type: f.file_type,
    width: f.width,
    height: f.height,
    duration: f.duration,
  };
}

export function toPost(row: PostRow): Post {
  return {
    id: row.id,
    user_id: row.user_id,
    caption: row.caption,
    media_type: row.media_type,
    status: row.status,
    files: row.files.map(toPostFile),
    user: {
      username: row.username,
      name: row.name,
      avatar_url: row.avatar_url,
      avatar_thumbnail_url: row.avatar_thumbnail_url,
    },
    is_liked: row.is_liked,
    likes_count: row.likes_count,
    is_saved: row.is_saved,
    is_reposted: row.is_reposted,
    reposts_count: row.reposts_count,
    comments_count: row.comments_count,
    is_filtered: row.is_filtered,
    ai_description: row.ai_description,
    ai_tags: row.ai_tags,
    created_at: row.created_at.toISOString(),
  };
}

export interface CommentRow {
  id: number;
  post_id: number;
  comment_text: string;
  created_at: Date;
  user_id: number;
  username: string;
  name: string;
  avatar_url: string | null;
}

export function toComment(row: CommentRow): Comment {
  return {
    id: row.id,
    post_id: row.post_id,
    comment_text: row.comment_text,
    created_at: row.created_at.toISOString(),
    user: { id: row.user_id, username: row.username, name: row.name, avatar_url: row.avatar_url },
  };
}
