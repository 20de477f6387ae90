import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { useStoriesUi } from '../stories-ui-store.ts';
import { storiesStrings } from '../strings.ts';
import { StoriesHost } from './StoriesHost.tsx';

beforeEach(() => useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } }));
afterEach(() => {
  vi.unstubAllGlobals();
  useStoriesUi.setState({ linkMissing: null });
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
