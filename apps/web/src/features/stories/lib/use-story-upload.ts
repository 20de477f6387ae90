import { useCallback } from 'react';
import { type StoryUploadInput, sendStory, storyForm } from '../api/upload-story.ts';
import { useStoriesUi } from '../stories-ui-store.ts';

/**
 * Sends a story; the strip shows a placeholder with the upload's progress, then "processing" until
 * `story-ready` arrives (stories-realtime.ts). A failure removes the placeholder and rejects.
 */
export function useStoryUpload() {
  const setPending = useStoriesUi((s) => s.setPending);
  return useCallback(
    async (input: StoryUploadInput, previewUrl: string | null) => {
      const key = `upload-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      setPending(key, { previewUrl, progress: 0, status: 'uploading' });
      try {
        const { story } = await sendStory(storyForm(input), (p) => setPending(key, { progress: p }));
        setPending(key, { status: 'processing', progress: 1, storyId: story.id });
        return story;
      } catch (error) {
        setPending(key, null);
        throw error;
      }
    },
    [setPending],
  );
}
