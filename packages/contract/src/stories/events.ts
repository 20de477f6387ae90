import type { StoryStatus } from './schemas.ts';

/** Realtime story events (spec style, like `live-stream-started`): strips refresh without a reload. */
export interface StoryEvent {
  story_id: number;
  user_id: number;
  status: StoryStatus;
}

export interface StoryServerEvents {
  /** To the uploader's devices: the upload was accepted and is processing. */
  'story-created': (event: StoryEvent) => void;
  /** To the uploader (ready or failed) and, when ready, to their followers. */
  'story-ready': (event: StoryEvent) => void;
  /** To the owner and followers: deleted by its owner. */
  'story-deleted': (event: StoryEvent) => void;
  /**
   * To a user who now follows someone (a follow, or their request to a private account accepted): whose
   * stories they may see changed, so the strip asks again at once.
   */
  'stories-changed': (event: StoriesChangedEvent) => void;
}

/** Whose stories the receiver may see changed: now following `user_id`. */
export interface StoriesChangedEvent {
  user_id: number;
}
