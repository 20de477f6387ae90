import type { Comment } from '@kadr/contract';

export interface CommentRow {
  id: number;
  post_id: number;
  comment_text: string;
  created_at: Date;
  user_id: number;
  username: string;
  name: string;
  avatar_url: string | null;
  parent_id: number | null;
}

export function toComment(row: CommentRow): Comment {
  return {
    id: row.id,
    post_id: row.post_id,
    comment_text: row.comment_text,
    created_at: row.created_at.toISOString(),
    user: { id: row.user_id, username: row.username, name: row.name, avatar_url: row.avatar_url },
    parent_id: row.parent_id,
  };
}
