import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { groupOf, storyOf } from '../../../test/stories.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { useStoriesUi } from '../stories-ui-store.ts';
import { storiesStrings } from '../strings.ts';
import { StoriesHost } from './StoriesHost.tsx';

beforeEach(() => useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } }));
afterEach(() => {
  vi.unstubAllGlobals();
  useStoriesUi.setState({ linkMissing: null, viewer: null });
});

describe('StoriesHost and a link to a story that is gone', () => {
  it('says so, tells the home page behind it, and forgets it when the host goes (a sign-out)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ error: 'История не найдена', code: 'not_found' }, 404)),
    );
    const { unmount } = render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/home?story=7']}>
          <StoriesHost />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByTestId('story-not-found')).toHaveTextContent(storiesStrings.linkMissing.hint);
    expect(useStoriesUi.getState().linkMissing).toBe(7);
    unmount();
    expect(useStoriesUi.getState().linkMissing).toBeNull();
  });
});

/** The address's query, where a test can read it. */
function Search() {
  return <span data-testid="search">{useLocation().search}</span>;
}

describe('StoriesHost and a link to a story', () => {
  it('opens the viewer on the linked story and drops the link once that viewer closes', async () => {
    const story = storyOf({ id: 7 });
    const group = groupOf(9, [story]);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        /\/stories\/7$/.test(url)
          ? jsonResponse({ group, story_id: 7 })
          : jsonResponse({ error: 'нет', code: 'not_found' }, 404),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/home?story=7']}>
          <StoriesHost />
          <Search />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(useStoriesUi.getState().viewer?.groups[0]?.stories[0]?.id).toBe(7));
    expect(screen.getByTestId('search')).toHaveTextContent('?story=7');
    act(() => useStoriesUi.getState().closeViewer());
    await waitFor(() => expect(screen.getByTestId('search')).toBeEmptyDOMElement());
  });
});
