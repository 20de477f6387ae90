import { useCallback } from 'react';
import { type StoryUploadInput, sendStory, storyForm } from '../api/upload-story.ts';
import { type PendingStory, useStoriesUi } from '../stories-ui-store.ts';

/** Sends `input` for the strip's upload tile `key`: its progress, then "processing" with the story's id. */
function useSend() {
  const setPending = useStoriesUi((s) => s.setPending);
  return useCallback(
    async (key: string, input: StoryUploadInput) => {
      setPending(key, { progress: 0, status: 'uploading', storyId: undefined, input });
      const { story } = await sendStory(storyForm(input), (p) => setPending(key, { progress: p }));
      setPending(key, { status: 'processing', progress: 1, storyId: story.id });
      return story;
    },
    [setPending],
  );
}

/**
 * Sends a story from the editor; the strip shows an upload tile with the upload's progress, then
 * "processing" until `story-ready` arrives (stories-realtime.ts). A refused upload removes the upload tile
 * and rejects: the editor, still open, says so and can send again.
 */
export function useStoryUpload() {
  const setPending = useStoriesUi((s) => s.setPending);
  const send = useSend();
  return useCallback(
    async (input: StoryUploadInput, previewUrl: string | null) => {
      const key = `upload-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      setPending(key, { previewUrl, progress: 0, status: 'uploading' });
      try {
        return await send(key, input);
      } catch (error) {
        setPending(key, null);
        throw error;
      }
    },
    [setPending, send],
  );
}

/**
 * The strip's answers to a failed upload tile (processing failed after the editor closed, or a retry was
 * refused): send the same input again, or dismiss it.
 */
export function usePendingActions() {
  const setPending = useStoriesUi((s) => s.setPending);
  const send = useSend();
  return {
    retry: useCallback(
      async (item: PendingStory) => {
        if (!item.input) return;
        try {
          await send(item.key, item.input);
        } catch (error) {
          console.error('Story upload failed', error);
          setPending(item.key, { status: 'failed' });
        }
      },
      [send, setPending],
    ),
    dismiss: useCallback(
      (item: PendingStory) => {
        if (item.previewUrl) URL.revokeObjectURL(item.previewUrl);
        setPending(item.key, null);
      },
      [setPending],
    ),
  };
}
