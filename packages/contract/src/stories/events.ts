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
}
