import type { Story, StoryGroup } from '@kadr/contract';

let nextId = 100;

/** A ready photo story with every field; override what a test cares about (ids count up from 100). */
export function storyOf(overrides: Partial<Story> = {}): Story {
  const id = overrides.id ?? nextId++;
  return {
    id,
    user_id: 9,
    media_type: 'photo',
    status: 'ready',
    file_url: `/media/story-${id}.webp`,
    thumbnail_url: null,
    caption: '',
    duration: 15,
    created_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    views_count: 0,
    is_viewed: false,
    is_liked: false,
    likes_count: 0,
    ai_tags: [],
    ai_description: '',
    is_filtered: false,
    ...overrides,
  };
}

/** One author's stories as the feed groups them. */
export function groupOf(userId: number, stories: Story[]): StoryGroup {
  return {
    user: { id: userId, username: `u${userId}`, name: 'Борис', display_name: 'Борис', avatar_url: null },
    stories,
    has_unviewed: true,
    last_story_at: stories.at(-1)?.created_at ?? '',
  };
}
