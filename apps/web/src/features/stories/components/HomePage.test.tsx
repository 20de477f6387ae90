import type { Post } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useSearchParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPINNER_DELAY_MS } from '../../../shared/ui/Spinner.tsx';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { postOf } from '../../../test/posts.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { useStoriesUi } from '../stories-ui-store.ts';
import { STORY_UI } from '../strings.ts';
import { HomePage } from './HomePage.tsx';

/**
 * Pull-to-refresh on the home page (spec §9: stories threshold 70, max 140). Like the feed's pull
 * (`media/lib/pull-refresh.ts`), the figures are the pull shown, which follows the finger with resistance
 * (0.6 here): the page refreshes once the shown pull reaches 70 px.
 */
const RESISTANCE = 0.6;
const fingerFor = (pull: number) => pull / RESISTANCE;

function stubApi(posts: Post[] = []) {
  const fetch = vi.fn(async (url: string) => {
    if (url.includes('/stories/feed')) return jsonResponse({ stories_groups: [] });
    if (url.includes('/media/following')) return jsonResponse({ posts, has_more: false });
    return jsonResponse({ error: 'нет', code: 'not_found' }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const feedCalls = (fetch: ReturnType<typeof stubApi>) =>
  fetch.mock.calls.filter(([url]) => url.includes('/stories/feed')).length;

/** What the stories host does when the viewer a link opened closes: the link goes. */
function DropStoryLink() {
  const [, setParams] = useSearchParams();
  return (
    <button type="button" onClick={() => setParams({}, { replace: true })}>
      drop the link
    </button>
  );
}

async function renderHome(posts: Post[] = [], url = '/home') {
  const fetch = stubApi(posts);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[url]}>
        <HomePage />
        <DropStoryLink />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  await waitFor(() => expect(feedCalls(fetch)).toBe(1));
  return fetch;
}

const page = () => screen.getByTestId('home-page');
/** The pull indicator: the first child of the page, its height the pull shown. */
const indicator = () => page().firstElementChild as HTMLElement;
const shown = () => Number.parseFloat(indicator().style.height);

function touch(type: 'touchStart' | 'touchMove' | 'touchEnd', y: number) {
  const touches = type === 'touchEnd' ? [] : [{ identifier: 1, clientX: 100, clientY: y }];
  fireEvent[type](page(), { touches, changedTouches: [{ identifier: 1, clientX: 100, clientY: y }] });
}

/** A downward drag from y=100 that moves the finger `distance` px, in steps, then lifts it. */
function pull(distance: number, { release = true } = {}) {
  touch('touchStart', 100);
  for (let y = 100; y < 100 + distance; y += 10) touch('touchMove', y);
  touch('touchMove', 100 + distance);
  if (release) touch('touchEnd', 100 + distance);
}

beforeEach(() => useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } }));
afterEach(() => vi.unstubAllGlobals());

describe('HomePage pull-to-refresh (70 / 140)', () => {
  it('uses the §9 stories figures', () => {
    expect(STORY_UI.pullThreshold).toBe(70);
    expect(STORY_UI.pullMax).toBe(140);
  });

  it('refetches the stories feed when the pull reaches 70 px', async () => {
    const fetch = await renderHome();
    await act(async () => pull(fingerFor(71)));
    await waitFor(() => expect(feedCalls(fetch)).toBe(2));
  });

  it('does not refetch when released short of 70 px', async () => {
    const fetch = await renderHome();
    await act(async () => pull(fingerFor(68)));
    // Give a refetch, if one were started, the chance to reach fetch.
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(feedCalls(fetch)).toBe(1);
    expect(shown()).toBe(0);
  });

  it('shows the pull while dragging, never more than 140 px', async () => {
    await renderHome();
    act(() => pull(fingerFor(40), { release: false }));
    expect(shown()).toBeCloseTo(40);
    expect(indicator()).toHaveTextContent('Потяните, чтобы обновить');
    act(() => touch('touchMove', 100 + 1000));
    expect(shown()).toBe(140);
  });

  it('an upward or sideways drag is not a pull', async () => {
    const fetch = await renderHome();
    await act(async () => {
      touch('touchStart', 300);
      for (let y = 290; y >= 100; y -= 10) touch('touchMove', y);
      touch('touchEnd', 100);
    });
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(feedCalls(fetch)).toBe(1);
    expect(shown()).toBe(0);
  });
});

/** A post's picture (a portrait photo). */
const file = {
  file_url: '/files/1.webp',
  thumbnail_url: '/files/1-thumb.webp',
  file_type: 'image' as const,
  width: 360,
  height: 640,
  duration: null,
};

describe('HomePage grid and the tag blacklist', () => {
  it('a post carrying a hidden tag shows no picture, only the hidden notice', async () => {
    await renderHome([
      postOf({ id: 1, caption: 'кот', files: [file], ai_tags: ['cats'], is_filtered: true }),
      postOf({ id: 2, caption: 'море', files: [file] }),
    ]);
    const hidden = await screen.findByRole('button', { name: /Вы скрыли подобное от себя/ });
    expect(hidden).toHaveAttribute('data-post-id', '1');
    expect(hidden.querySelector('img')).toBeNull();
    const shownTile = screen.getByRole('button', { name: /Открыть публикацию 2/ });
    expect(shownTile).not.toHaveAccessibleName(/скрыли/);
    expect(shownTile.querySelector('img')).not.toBeNull();
  });
});

describe('HomePage under a story opened by link', () => {
  afterEach(() => useStoriesUi.setState({ linkMissing: null }));

  it('a link to a story that is gone leaves the page whole behind its sheet', async () => {
    useStoriesUi.setState({ linkMissing: 7 });
    await renderHome([postOf({ id: 2, caption: 'море', files: [file] })], '/home?story=7');
    expect(await screen.findByRole('button', { name: /Открыть публикацию 1/ })).toBeInTheDocument();
    expect(screen.getByTestId('own-story')).toBeInTheDocument();
  });

  it('loads its lists but renders the strip and the grid only once the viewer has closed', async () => {
    const fetch = await renderHome([postOf({ id: 2, caption: 'море', files: [file] })], '/home?story=7');
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url]) => url.includes('/media/following'))).toBe(true),
    );
    // Both answers are in, and still nothing of them is drawn under the viewer.
    await act(async () => {});
    expect(screen.queryByRole('button', { name: /Открыть публикацию 1/ })).toBeNull();
    expect(page().querySelector('img')).toBeNull();
    expect(screen.queryByTestId('own-story')).toBeNull();
    // Nor a spinner, however long the story stays: an endless animation nobody sees keeps the compositor
    // drawing every frame.
    await act(async () => new Promise((r) => setTimeout(r, SPINNER_DELAY_MS + 20)));
    expect(page().querySelector('[class*="spinner"]')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'drop the link' }));
    expect(await screen.findByRole('button', { name: /Открыть публикацию 1/ })).toBeInTheDocument();
    expect(screen.getByTestId('own-story')).toBeInTheDocument();
    // From what was loaded: no second request.
    expect(fetch.mock.calls.filter(([url]) => url.includes('/media/following'))).toHaveLength(1);
  });
});
