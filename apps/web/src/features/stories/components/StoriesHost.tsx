import { storiesEndpoints } from '@kadr/contract/stories/endpoints';
import { lazy, Suspense, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { api, isApiError } from '../../../shared/api/client.ts';
import { STORY_PARAM } from '../lib/story-link.ts';
import { useStoriesUi } from '../stories-ui-store.ts';

const StoryViewer = lazy(() => import('./StoryViewer.tsx').then((m) => ({ default: m.StoryViewer })));
const StoryLinkMissing = lazy(() =>
  import('./StoryLinkMissing.tsx').then((m) => ({ default: m.StoryLinkMissing })),
);
const StoryEditor = lazy(() => import('./StoryEditor.tsx').then((m) => ({ default: m.StoryEditor })));

/**
 * Mounted with the shell: the viewer overlay and the editor, and the deep link `?story=<id>` (any shell
 * page, e.g. /home?story=12) that opens the viewer on that story.
 */
export function StoriesHost() {
  const viewer = useStoriesUi((s) => s.viewer);
  const editorOpen = useStoriesUi((s) => s.editorOpen);
  const [params, setParams] = useSearchParams();
  const linked = Number(params.get(STORY_PARAM));
  // The linked story that does not exist (or is not visible to the viewer): said plainly.
  const missing = useStoriesUi((s) => s.linkMissing);
  const setMissing = useStoriesUi((s) => s.setLinkMissing);
  const dropLink = () => {
    setMissing(null);
    setParams(
      (p) => {
        p.delete(STORY_PARAM);
        return p;
      },
      { replace: true },
    );
  };

  // Held in the stories store so the home page knows the sheet is up; gone with the host (a sign-out), as the
  // host's own state would be.
  useEffect(() => () => setMissing(null), [setMissing]);

  useEffect(() => {
    if (!Number.isInteger(linked) || linked <= 0) return;
    const controller = new AbortController();
    api.call(storiesEndpoints.get, { params: { id: linked }, signal: controller.signal }).then(
      ({ group, story_id }) => {
        const index = Math.max(
          0,
          group.stories.findIndex((st) => st.id === story_id),
        );
        useStoriesUi.getState().openViewer([group], 0, index);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error) && error.status < 500) setMissing(linked);
        else console.error('Failed to load the linked story', error);
      },
    );
    return () => controller.abort();
  }, [linked, setMissing]);

  // The link is consumed once the viewer it opened closes. The watch lasts while the link is in the address,
  // open viewer or not: one set up only once the viewer had closed came after the close, and the link stayed
  // (the home page under it then stayed covered, empty).
  useEffect(() => {
    if (!params.has(STORY_PARAM)) return;
    const opened = useStoriesUi.subscribe((state, prev) => {
      if (prev.viewer && !state.viewer) {
        setParams(
          (p) => {
            p.delete(STORY_PARAM);
            return p;
          },
          { replace: true },
        );
      }
    });
    return opened;
  }, [params, setParams]);

  return (
    <Suspense fallback={null}>
      {viewer ? <StoryViewer viewer={viewer} /> : null}
      {editorOpen ? <StoryEditor /> : null}
      {missing !== null && missing === linked ? <StoryLinkMissing onClose={dropLink} /> : null}
    </Suspense>
  );
}
