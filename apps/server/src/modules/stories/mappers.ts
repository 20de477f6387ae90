import type { Story, StoryGroup, StoryUser } from '@kadr/contract';
import { StoryLimits } from '@kadr/contract';
import { isHidden } from '../media/feed-ranking.ts';
import type { ReadStoryRow, StoryRow } from './repository.ts';

export function toStoryUser(u: {
  id: number;
  username: string;
  name: string;
  avatar_url: string | null;
}): StoryUser {
  return { id: u.id, username: u.username, name: u.name, display_name: u.name, avatar_url: u.avatar_url };
}

export function toStory(
  row: StoryRow,
  marks: { is_viewed: boolean; is_liked: boolean },
  blacklist: ReadonlySet<string>,
): Story {
  const created = new Date(row.created_at);
  return {
    id: row.id,
    user_id: row.user_id,
    media_type: row.media_type,
    status: row.status,
    file_url: row.file_url,
    thumbnail_url: row.thumbnail_url,
    caption: row.caption,
    duration: Number(row.duration),
    created_at: created.toISOString(),
    expires_at: new Date(created.getTime() + StoryLimits.lifetimeMs).toISOString(),
    views_count: row.views_count,
    is_viewed: marks.is_viewed,
    is_liked: marks.is_liked,
    likes_count: row.likes_count,
    ai_tags: row.ai_tags,
    ai_description: row.ai_description,
    is_filtered: isHidden(row.ai_tags, blacklist),
    screen_url: row.screen_url ?? null,
  };
}

/** Rows already ordered by group, then oldest first, into §3 groups (has_unviewed recomputed here). */
export function toGroups(rows: ReadStoryRow[], blacklist: ReadonlySet<string>): StoryGroup[] {
  const groups: StoryGroup[] = [];
  let current: StoryGroup | null = null;
  for (const row of rows) {
    if (!current || current.user.id !== row.user_id) {
      current = {
        user: toStoryUser({
          id: row.user_id,
          username: row.username,
          name: row.name,
          avatar_url: row.avatar_url,
        }),
        stories: [],
        has_unviewed: false,
        last_story_at: '',
      };
      groups.push(current);
    }
    const story = toStory(row, row, blacklist);
    current.stories.push(story);
    if (!story.is_viewed) current.has_unviewed = true;
    current.last_story_at = story.created_at;
  }
  return groups;
}
