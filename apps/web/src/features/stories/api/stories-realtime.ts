import type { StoryEvent } from '@kadr/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { KadrSocket } from '../../../shared/realtime/socket.ts';
import { useStoriesUi } from '../stories-ui-store.ts';
import { storiesKeys } from './stories-queries.ts';

/** Strips update without a reload: any story change refetches the feed; the uploader's upload tile resolves. */
export function attachStoriesRealtime(socket: KadrSocket, queryClient: QueryClient) {
  const refresh = () => void queryClient.invalidateQueries({ queryKey: storiesKeys.feed() });
  const onReady = (event: StoryEvent) => {
    const ui = useStoriesUi.getState();
    const pending = ui.pending.find((p) => p.storyId === event.story_id);
    if (pending) {
      if (event.status === 'failed') ui.setPending(pending.key, { status: 'failed' });
      else {
        // The upload tile goes once the refetched feed holds the result.
        void queryClient.invalidateQueries({ queryKey: storiesKeys.feed() }).then(() => {
          if (pending.previewUrl) URL.revokeObjectURL(pending.previewUrl);
          ui.setPending(pending.key, null);
        });
        return;
      }
    }
    refresh();
  };
  socket.on('story-created', refresh);
  socket.on('story-ready', onReady);
  socket.on('story-deleted', refresh);
  return () => {
    socket.off('story-created', refresh);
    socket.off('story-ready', onReady);
    socket.off('story-deleted', refresh);
  };
}
