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

export interface PostsTable {
  id: Generated<number>;
  user_id: number;
  caption: Generated<string>;
  media_type: 'video' | 'photo' | 'carousel';
  status: Generated<'uploading' | 'processing' | 'done' | 'failed'>;
  likes_count: Generated<number>;
  reposts_count: Generated<number>;
  comments_count: Generated<number>;
  ai_tags: Generated<string[]>;
  ai_description: Generated<string>;
  ai_objects: Generated<string[]>;
  alt_edited: Generated<boolean>;
  ai_for_sleep: Generated<boolean>;
  ai_calm_score: number | null;
  ai_provider: string | null;
  ai_model: string | null;
  for_sleep_override: boolean | null;
  /** Set with status 'failed': the Russian reason the uploader is shown. */
  failure_reason: Generated<string | null>;
  created_at: Generated<Date>;
}

export interface PostFilesTable {
  id: Generated<number>;
  post_id: number;
  position: number;
  file_type: 'video' | 'image';
  file_url: Generated<string>;
  thumbnail_url: string | null;
  /** A photo's screen variant, what the feed shows (migration 2800-media-screen-variant); null for videos and older photos. */
  screen_url: Generated<string | null>;
  width: number | null;
  height: number | null;
  duration: number | null;
}

export interface PostUserLinkTable {
  post_id: number;
  user_id: number;
  created_at: Generated<Date>;
}

export interface PostCommentsTable {
  id: Generated<number>;
  post_id: number;
  user_id: number;
  comment_text: string;
  created_at: Generated<Date>;
}

export interface TagBlacklistTable {
  user_id: number;
  tag: string;
  created_at: Generated<Date>;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: unknown;
  status: Generated<'queued' | 'running' | 'done' | 'failed'>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: Generated<Date>;
  locked_by: string | null;
  locked_until: Date | null;
  last_error: string | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
}

export interface ConversationsTable {
  id: Generated<number>;
  type: 'personal' | 'favorites' | 'group' | 'channel';
  user_low: number | null;
  user_high: number | null;
  created_at: Generated<Date>;
}

export interface ConversationMembersTable {
  conversation_id: number;
  user_id: number;
  pin_order: number | null;
  last_read_id: Generated<number>;
  last_delivered_id: Generated<number>;
  cleared_up_to: Generated<number>;
  joined_at: Generated<Date>;
}

export interface MessagesTable {
  id: Generated<number>;
  conversation_id: number;
  sender_id: number;
  content: Generated<string>;
  message_type: Generated<'text' | 'media' | 'call' | 'service'>;
  temp_id: string | null;
  is_forwarded: Generated<boolean>;
  forwarded_from_id: number | null;
  created_at: Generated<Date>;
  edited_at: Date | null;
  deleted_at: Date | null;
}

export interface MessageHiddenTable {
  user_id: number;
  message_id: number;
}

export interface MessageFilesTable {
  id: Generated<number>;
  uploader_id: number;
  message_id: number | null;
  position: Generated<number>;
  file_type: 'photo' | 'image' | 'gif' | 'video' | 'document' | 'voice';
  file_url: string;
  thumbnail_url: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  file_size: number;
  file_name: string | null;
  /** Voice messages: JSON array of bar heights 0–100 (migration 0111-messenger-voice). */
  waveform: string | null;
  created_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  follows: FollowsTable;
  posts: PostsTable;
  post_files: PostFilesTable;
  post_likes: PostUserLinkTable;
  post_saves: PostUserLinkTable;
  post_reposts: PostUserLinkTable;
  post_comments: PostCommentsTable;
  tag_blacklist: TagBlacklistTable;
  jobs: JobsTable;
  conversations: ConversationsTable;
  conversation_members: ConversationMembersTable;
  messages: MessagesTable;
  message_hidden: MessageHiddenTable;
  message_files: MessageFilesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
