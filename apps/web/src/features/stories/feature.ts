import { defineFeature } from '../../app/feature.ts';
import { attachStoriesRealtime } from './api/stories-realtime.ts';
import { StoriesHost } from './components/StoriesHost.tsx';

/** Stories: the strip and home page (rendered by the shell's home view), the viewer, the editor, live updates. */
export const storiesFeature = defineFeature({
  name: 'stories',
  hosts: [StoriesHost],
  realtime: (socket, queryClient) => attachStoriesRealtime(socket, queryClient),
});
