import type { StoryGroup } from '@kadr/contract';
import { describe, expect, it } from 'vitest';
import { normalizeGroups } from './stories-queries.ts';

function groupOf(userId: number, lastStoryAt: string): StoryGroup {
  return {
    user: { id: userId, username: `u${userId}`, name: 'Борис', display_name: 'Борис', avatar_url: null },
    stories: [],
    has_unviewed: true,
    last_story_at: lastStoryAt,
  };
}

describe('normalizeGroups', () => {
  it('puts the newest story first and recomputes has_unviewed', () => {
    const groups = normalizeGroups([
      groupOf(1, '2025-06-09T23:59:59.000Z'),
      groupOf(2, '2025-06-10T08:00:00.000Z'),
      groupOf(3, '2025-06-10T10:30:00.000Z'),
      groupOf(4, '2025-06-10T08:00:00.000Z'),
    ]);
    expect(groups.map((g) => g.user.id)).toEqual([3, 2, 4, 1]);
    expect(groups.every((g) => g.has_unviewed === false)).toBe(true);
  });
});
