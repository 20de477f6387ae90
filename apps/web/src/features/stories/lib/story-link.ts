/** The deep link that opens the viewer on one story: `/home?story=<id>` (StoriesHost reads it). */
export const STORY_PARAM = 'story';

export function storyLink(storyId: number): string {
  return `${window.location.origin}/home?${STORY_PARAM}=${storyId}`;
}
