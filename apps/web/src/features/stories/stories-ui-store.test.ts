import type { Story, StoryGroup } from '@kadr/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { useStoriesUi } from './stories-ui-store.ts';

const story = (id: number, user_id: number) => ({ id, user_id }) as Story;
const group = (userId: number, ids: number[]) =>
  ({ user: { id: userId }, stories: ids.map((id) => story(id, userId)) }) as unknown as StoryGroup;
const shown = () => {
  const v = useStoriesUi.getState().viewer;
  return v ? v.groups[v.groupIndex]?.stories[v.storyIndex]?.id : null;
};

describe('dropStory (a reported story leaves the open viewer)', () => {
  beforeEach(() => useStoriesUi.setState({ viewer: null }));

  it('shows the next group when the dropped story was the last of its group', () => {
    useStoriesUi.getState().openViewer([group(1, [10]), group(2, [20, 21])], 0, 0);
    useStoriesUi.getState().dropStory(10);
    expect(useStoriesUi.getState().viewer?.groups.map((g) => g.user.id)).toEqual([2]);
    expect(shown()).toBe(20);
  });

  it('keeps the current story when another one is dropped', () => {
    useStoriesUi.getState().openViewer([group(1, [10, 11]), group(2, [20])], 1, 0);
    useStoriesUi.getState().dropStory(10);
    expect(shown()).toBe(20);
    expect(useStoriesUi.getState().viewer?.groups[0]?.stories.map((s) => s.id)).toEqual([11]);
  });

  it('closes the viewer after the last story of the last group', () => {
    useStoriesUi.getState().openViewer([group(1, [10]), group(2, [20])], 1, 0);
    useStoriesUi.getState().dropStory(20);
    expect(useStoriesUi.getState().viewer).toBeNull();
  });
});
