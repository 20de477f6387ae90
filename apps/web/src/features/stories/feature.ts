import { defineFeature } from '../../app/feature.ts';
import { StoriesHost } from './components/StoriesHost.tsx';

/** Stories: the strip and home page (rendered by the shell's home view), the viewer, the editor, live updates. */
export const storiesFeature = defineFeature({
  name: 'stories',
  hosts: [StoriesHost],
  realtime: async () => (await import('./api/stories-realtime.ts')).attachStoriesRealtime,
});
