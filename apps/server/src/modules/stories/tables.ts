import type { Generated } from 'kysely';

export interface StoriesTable {
  id: Generated<number>;
  user_id: number;
  media_type: 'video' | 'photo';
  status: Generated<'processing' | 'ready' | 'failed'>;
  caption: Generated<string>;
  file_url: string | null;
  thumbnail_url: string | null;
  /**
   * A photo's screen variant, exactly 720×1280 (migration 2801-stories-screen-variant): what a phone's viewer
   * shows. Null for videos, for photos no larger than that and for stories processed before it.
   */
  screen_url: string | null;
  /** Seconds on screen (the video's output length, or the image's chosen duration). */
  duration: number;
  ai_tags: Generated<string[]>;
  ai_description: Generated<string>;
  views_count: Generated<number>;
  likes_count: Generated<number>;
  /** Written from the module's clock (not the database's), so expiry follows one clock. */
  created_at: Date;
}

export interface StoryMarksTable {
  story_id: number;
  user_id: number;
  created_at: Generated<Date>;
}

export interface StoryReportsTable {
  id: Generated<number>;
  story_id: number;
  user_id: number;
  reason: string;
  created_at: Generated<Date>;
}

// Migration 0200's tables join the shared Database type from here (as livekit/tables.ts does); the
// messages table gains the story a reply points at.
declare module '../../db/schema.ts' {
  interface Database {
    stories: StoriesTable;
    story_views: StoryMarksTable;
    story_likes: StoryMarksTable;
    story_reports: StoryReportsTable;
  }
  interface MessagesTable {
    story_id: number | null;
  }
}
