import type { Post } from '@kadr/contract';

/** A processed post with every §3 field; override what a test cares about. */
export function postOf(overrides: Partial<Post> = {}): Post {
  return {
    id: 1,
    user_id: 9,
    caption: '',
    media_type: 'photo',
    status: 'done',
    files: [
      {
        file_url: '/files/a.webp',
        thumbnail_url: null,
        screen_url: null,
        file_type: 'image',
        width: 1,
        height: 1,
        duration: null,
      },
    ],
    user: { username: 'boris', name: 'Борис', avatar_url: null, avatar_thumbnail_url: null },
    is_liked: false,
    likes_count: 0,
    is_saved: false,
    is_reposted: false,
    reposts_count: 0,
    comments_count: 0,
    is_filtered: false,
    ai_description: '',
    ai_objects: [],
    ai_tags: [],
    created_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}
