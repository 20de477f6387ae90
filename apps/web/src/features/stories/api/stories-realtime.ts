import type { StoriesFeedResponse, StoryEvent } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import { refetchOnMissed } from '../../../shared/realtime/refetch-missed.ts';
import type { KadrSocket } from '../../../shared/realtime/socket.ts';
import { useStoriesUi } from '../stories-ui-store.ts';
import { storiesKeys } from './stories-queries.ts';

/** How often, and how many times, the feed is asked again for a story the server said is ready. */
const READY_RETRY_MS = 2000;
const READY_RETRIES = 30;

function feedHolds(queryClient: QueryClient, storyId: number): boolean {
  const feed = queryClient.getQueryData<StoriesFeedResponse>(storiesKeys.feed());
  return feed?.stories_groups.some((g) => g.stories.some((s) => s.id === storyId)) ?? false;
}

/**
 * Strips update without a reload: any story change refetches the feed; the uploader's upload tile resolves. The
 * tile stays until the refetched feed really holds the story (a feed answered from a cache not yet refreshed
 * is asked again), so there is no gap between the tile going and the story appearing.
 */
export function attachStoriesRealtime(socket: KadrSocket, queryClient: QueryClient) {
  const refresh = () => void queryClient.invalidateQueries({ queryKey: storiesKeys.feed() });
  const onReady = (event: StoryEvent) => {
    const ui = useStoriesUi.getState();
    const pending = ui.pending.find((p) => p.storyId === event.story_id);
    if (pending) {
      if (event.status === 'failed') ui.setPending(pending.key, { status: 'failed' });
      else {
        void (async () => {
          for (let attempt = 0; attempt < READY_RETRIES; attempt++) {
            await queryClient.invalidateQueries({ queryKey: storiesKeys.feed() });
            if (feedHolds(queryClient, event.story_id)) break;
            await new Promise((resolve) => setTimeout(resolve, READY_RETRY_MS));
          }
          if (pending.previewUrl) URL.revokeObjectURL(pending.previewUrl);
          useStoriesUi.getState().setPending(pending.key, null);
        })();
        return;
      }
    }
    refresh();
  };
  socket.on('story-created', refresh);
  socket.on('story-ready', onReady);
  socket.on('story-deleted', refresh);
  // A followee's (or an accepted request's) stories: the strip and the home grid of followed posts.
  const onReach = () => {
    refresh();
    void queryClient.invalidateQueries({ queryKey: storiesKeys.home() });
  };
  socket.on('stories-changed', onReach);
  // A story that became ready (or a follow) before the page's socket was up.
  const stopMissed = refetchOnMissed(socket, queryClient, [
    [storiesKeys.feed(), ['story-created', 'story-ready', 'story-deleted', 'stories-changed']],
    [storiesKeys.home(), ['stories-changed']],
  ]);
  return () => {
    stopMissed();
    socket.off('stories-changed', onReach);
    socket.off('story-created', refresh);
    socket.off('story-ready', onReady);
    socket.off('story-deleted', refresh);
  };
}
