import type { StoryGroup } from '@kadr/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, me } from '../../../test/fixtures.ts';
import { groupOf, storyOf } from '../../../test/stories.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { useStoriesUi } from '../stories-ui-store.ts';
import { StoryViewer } from './StoryViewer.tsx';

const avatarRenders = vi.hoisted(() => ({ count: 0 }));
// The author's avatar in the viewer's header, counting its renders (a render of the viewer renders it).
vi.mock('../../../shared/ui/Avatar.tsx', async (original) => {
  const { counted } = await import('../../../test/render-count.ts');
  return counted(await original<typeof import('../../../shared/ui/Avatar.tsx')>(), 'Avatar', avatarRenders);
});

/** Answers the stories endpoints the viewer calls; records every request. */
function stubApi(viewers: unknown = { viewers: [] }) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url.endsWith('/view')) return jsonResponse({ is_viewed: true, views_count: 1 });
    if (url.endsWith('/viewers')) return jsonResponse(viewers);
    if (url.endsWith('/moderation/reports') && method === 'POST') return jsonResponse({ reported: true });
    if (url.includes('/stories/feed')) return jsonResponse({ stories_groups: [] });
    return jsonResponse({ error: 'нет', code: 'not_found' }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The viewer as StoriesHost mounts it: driven by the UI store, so moving and closing re-render it. */
function Host() {
  const viewer = useStoriesUi((s) => s.viewer);
  return viewer ? <StoryViewer viewer={viewer} /> : null;
}

function open(groups: StoryGroup[], groupIndex = 0, storyIndex = 0) {
  useStoriesUi.getState().openViewer(groups, groupIndex, storyIndex);
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Host />
    </QueryClientProvider>,
  );
}

const viewerEl = () => screen.getByTestId('story-viewer');
const shownId = () => Number(viewerEl().dataset.storyId);
/** The current story's progress (0–1), read from its segment's scaleX. */
function progress(index = 0): number {
  const fills = viewerEl().querySelectorAll<HTMLElement>('[style*="scaleX"]');
  return Number(/scaleX\(([\d.e-]+)\)/.exec(fills[index]?.style.transform ?? '')?.[1] ?? Number.NaN);
}

function defineNavigator(key: 'share' | 'clipboard', value: unknown) {
  Object.defineProperty(navigator, key, { value, configurable: true, writable: true });
}

beforeEach(() => {
  useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
  useStoriesUi.setState({ viewer: null });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  delete (navigator as { share?: unknown }).share;
  delete (navigator as { clipboard?: unknown }).clipboard;
});

describe('StoryViewer: the progress bar', () => {
  it('moves on every tick without rendering the viewer again', () => {
    vi.useFakeTimers();
    stubApi();
    open([groupOf(9, [storyOf(), storyOf()])]);
    fireEvent.load(screen.getByTestId('story-media'));
    act(() => vi.advanceTimersByTime(100));
    const renders = avatarRenders.count;
    const first = progress();
    // Tick by tick, each in its own act (one act would batch state updates into a single render).
    for (let tick = 0; tick < 60; tick++) act(() => vi.advanceTimersByTime(50));
    // 60 ticks of 50 ms: the bar moved 3 s of 15, the viewer did not render for them.
    expect(progress() - first).toBeCloseTo(0.2, 1);
    expect(avatarRenders.count).toBe(renders);
  });
});

describe('StoryViewer: holding the middle third', () => {
  it('pauses the progress and hides the chrome while held; releasing resumes', () => {
    vi.useFakeTimers();
    stubApi();
    const story = storyOf();
    open([groupOf(9, [story, storyOf()])]);
    const stage = screen.getByTestId('story-stage');
    vi.spyOn(stage, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 300, 600));
    fireEvent.load(screen.getByTestId('story-media'));

    act(() => vi.advanceTimersByTime(1500));
    const beforeHold = progress();
    expect(beforeHold).toBeGreaterThan(0);

    const frame = viewerEl().querySelector('[data-chrome-hidden]');
    expect(frame).toHaveAttribute('data-chrome-hidden', 'false');
    fireEvent.pointerDown(stage, { pointerId: 1, button: 0, clientX: 150, clientY: 300 });
    act(() => vi.advanceTimersByTime(300));
    expect(frame).toHaveAttribute('data-chrome-hidden', 'true');
    const held = progress();
    act(() => vi.advanceTimersByTime(5000));
    expect(progress()).toBe(held);
    expect(shownId()).toBe(story.id);

    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 150, clientY: 300 });
    expect(frame).toHaveAttribute('data-chrome-hidden', 'false');
    // A release after a hold is not a tap: the same story stays and runs on.
    expect(shownId()).toBe(story.id);
    act(() => vi.advanceTimersByTime(1500));
    expect(progress()).toBeGreaterThan(held);
  });

  it('a press on the left or right third does not pause', () => {
    vi.useFakeTimers();
    stubApi();
    open([groupOf(9, [storyOf()])]);
    const stage = screen.getByTestId('story-stage');
    vi.spyOn(stage, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 300, 600));
    fireEvent.load(screen.getByTestId('story-media'));
    fireEvent.pointerDown(stage, { pointerId: 1, button: 0, clientX: 250, clientY: 300 });
    act(() => vi.advanceTimersByTime(300));
    expect(viewerEl().querySelector('[data-chrome-hidden]')).toHaveAttribute('data-chrome-hidden', 'false');
    const atHold = progress();
    act(() => vi.advanceTimersByTime(1000));
    expect(progress()).toBeGreaterThan(atHold);
  });
});

describe('StoryViewer: the options menu', () => {
  const openMenu = () => fireEvent.click(screen.getByRole('button', { name: 'Ещё' }));

  it('offers share, copy link and report for another person’s story', () => {
    stubApi();
    open([groupOf(9, [storyOf()])]);
    openMenu();
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((b) => b.textContent?.trim()),
    ).toEqual(['Поделиться', 'Копировать ссылку', 'Пожаловаться']);
  });

  it('shares the deep link through the Web Share API when the browser has it', async () => {
    stubApi();
    const share = vi.fn().mockResolvedValue(undefined);
    const writeText = vi.fn().mockResolvedValue(undefined);
    defineNavigator('share', share);
    defineNavigator('clipboard', { writeText });
    const story = storyOf({ id: 41 });
    open([groupOf(9, [story])]);
    openMenu();
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: 'Поделиться' })));
    expect(share).toHaveBeenCalledWith({
      title: 'Истории Борис',
      url: `${window.location.origin}/home?story=41`,
    });
    expect(writeText).not.toHaveBeenCalled();
  });

  it('copies the deep link when there is no Web Share API', async () => {
    stubApi();
    const writeText = vi.fn().mockResolvedValue(undefined);
    defineNavigator('clipboard', { writeText });
    open([groupOf(9, [storyOf({ id: 42 })])]);
    openMenu();
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: 'Поделиться' })));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/home?story=42`);
    expect(await screen.findByRole('status')).toHaveTextContent('Ссылка скопирована');
  });

  it('copy link puts /home?story=<id> on the clipboard', async () => {
    stubApi();
    const writeText = vi.fn().mockResolvedValue(undefined);
    defineNavigator('clipboard', { writeText });
    open([groupOf(9, [storyOf({ id: 43 })])]);
    openMenu();
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: 'Копировать ссылку' })));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/home?story=43`);
    expect(new URL(writeText.mock.calls[0]?.[0] as string).pathname).toBe('/home');
    expect(await screen.findByRole('status')).toHaveTextContent('Ссылка скопирована');
  });

  it('report stores the chosen reason and hides the story: going back does not show it again', async () => {
    const fetch = stubApi();
    const first = storyOf();
    const reported = storyOf();
    const after = storyOf();
    open([groupOf(9, [first, reported, after])], 0, 1);
    expect(shownId()).toBe(reported.id);
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Пожаловаться' }));
    expect(screen.getByRole('heading', { name: 'Почему вы жалуетесь на эту историю?' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Спам' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Жалоба отправлена. Эта история скрыта от вас.',
    );
    const call = fetch.mock.calls.find(([url]) => url.endsWith('/moderation/reports'));
    expect(call?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      kind: 'story',
      target_id: reported.id,
      reason: 'spam',
    });
    expect(shownId()).toBe(after.id);

    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(shownId()).toBe(first.id);
    expect(useStoriesUi.getState().viewer?.groups[0]?.stories.map((s) => s.id)).toEqual([first.id, after.id]);
  });

  it('reporting the last story closes the viewer', async () => {
    stubApi();
    open([groupOf(9, [storyOf()])]);
    openMenu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Пожаловаться' }));
    fireEvent.click(screen.getByRole('button', { name: 'Другое' }));
    await vi.waitFor(() => expect(useStoriesUi.getState().viewer).toBeNull());
    expect(screen.queryByTestId('story-viewer')).not.toBeInTheDocument();
  });

  it('offers no report on one’s own story', () => {
    stubApi();
    open([groupOf(me.id, [storyOf({ user_id: me.id })])]);
    openMenu();
    expect(screen.queryByRole('menuitem', { name: 'Пожаловаться' })).not.toBeInTheDocument();
  });
});

describe('StoryViewer: owner, failures and preloading', () => {
  it('the owner’s viewers list says «Пока ничего нет» when nobody has looked', async () => {
    const fetch = stubApi({ viewers: [] });
    const own = storyOf({ user_id: me.id, views_count: 0 });
    open([groupOf(me.id, [own])]);
    expect(screen.queryByTestId('story-like')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Просмотры: 0/ }));
    expect(await screen.findByText('Пока ничего нет')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => url.endsWith(`/stories/${own.id}/viewers`))).toBe(true);
    // The owner's own view is never counted.
    expect(fetch.mock.calls.some(([url]) => url.endsWith('/view'))).toBe(false);
  });

  it('a viewers load failure is logged and reads as an empty list (§8)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ error: 'сбой', code: 'internal' }, 500)),
    );
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    open([groupOf(me.id, [storyOf({ user_id: me.id })])]);
    fireEvent.click(screen.getByRole('button', { name: /Просмотры/ }));
    expect(await screen.findByText('Пока ничего нет')).toBeInTheDocument();
    expect(error).toHaveBeenCalled();
  });

  it('a broken image says «Не удалось загрузить изображение»', () => {
    stubApi();
    open([groupOf(9, [storyOf()])]);
    fireEvent.error(screen.getByTestId('story-media'));
    expect(screen.getByRole('alert')).toHaveTextContent('Не удалось загрузить изображение');
    expect(screen.queryByTestId('story-media')).not.toBeInTheDocument();
  });

  it('preloads the next story’s media while the current one shows, across groups too', () => {
    stubApi();
    const current = storyOf();
    const nextImage = storyOf();
    const nextGroupVideo = storyOf({ user_id: 11, media_type: 'video', file_url: '/media/next.mp4' });
    open([groupOf(9, [current, nextImage]), groupOf(11, [nextGroupVideo])]);
    const img = viewerEl().querySelector(`img[src="${nextImage.file_url}"]`);
    expect(img).not.toBeNull();
    expect(img).not.toBe(screen.getByTestId('story-media'));
    expect(screen.getByTestId('story-media')).toHaveAttribute('src', current.file_url);

    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(shownId()).toBe(nextImage.id);
    const video = viewerEl().querySelector<HTMLVideoElement>('video[src="/media/next.mp4"]');
    expect(video).not.toBeNull();
    expect(video).toHaveAttribute('preload', 'auto');
  });
});

describe('StoryViewer: the picture it shows', () => {
  it('a photo’s screen variant at 720×1280, fetched first; the next story’s preload names the same URL', () => {
    stubApi();
    const current = storyOf({ screen_url: '/media/story-screen.webp' });
    const next = storyOf({ screen_url: '/media/next-screen.webp' });
    open([groupOf(9, [current, next])]);
    const media = screen.getByTestId('story-media');
    expect(media).toHaveAttribute('src', '/media/story-screen.webp');
    expect([media.getAttribute('width'), media.getAttribute('height')]).toEqual(['720', '1280']);
    expect(media).toHaveAttribute('fetchpriority', 'high');
    // The next story is fetched as it will be shown, and its full-size file not at all.
    expect(viewerEl().querySelector('img[src="/media/next-screen.webp"]')).not.toBeNull();
    expect(viewerEl().querySelector(`img[src="${next.file_url}"]`)).toBeNull();

    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(shownId()).toBe(next.id);
    expect(screen.getByTestId('story-media')).toHaveAttribute('src', '/media/next-screen.webp');
  });

  it('a photo without a screen variant shows its file at the story frame’s size', () => {
    stubApi();
    const story = storyOf({ screen_url: null });
    open([groupOf(9, [story])]);
    const media = screen.getByTestId('story-media');
    expect(media).toHaveAttribute('src', story.file_url);
    expect([media.getAttribute('width'), media.getAttribute('height')]).toEqual(['1080', '1920']);
  });
});

describe('StoryViewer: focus', () => {
  it('the viewer takes focus once its first frame is drawn, not in the commit that mounts it', () => {
    vi.useFakeTimers({
      toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout', 'clearTimeout'],
    });
    stubApi();
    open([groupOf(9, [storyOf()])]);
    const dialog = screen.getByRole('dialog');
    // A focus in the mount's commit would lay the whole page out inside that task.
    expect(document.activeElement).not.toBe(dialog);
    act(() => {
      vi.advanceTimersToNextFrame();
      vi.advanceTimersByTime(1);
    });
    expect(document.activeElement).toBe(dialog);
  });
});

describe('StoryViewer: its menu and sheets on the shared PopupMenu and Sheet', () => {
  it('Escape closes the options menu (not the viewer) and focus returns to «Ещё»', async () => {
    stubApi();
    open([groupOf(9, [storyOf()])]);
    const more = screen.getByRole('button', { name: 'Ещё' });
    more.focus();
    fireEvent.click(more);
    const menu = screen.getByRole('menu', { name: 'Ещё' });
    expect(menu.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Escape' });
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(viewerEl()).toBeInTheDocument();
    expect(more).toHaveFocus();
  });

  it('the report sheet is a modal dialog: Escape closes it (not the viewer) and focus returns to «Ещё»', async () => {
    stubApi();
    open([groupOf(9, [storyOf()])]);
    const more = screen.getByRole('button', { name: 'Ещё' });
    more.focus();
    fireEvent.click(more);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Пожаловаться' }));
    const sheet = screen.getByRole('dialog', { name: 'Почему вы жалуетесь на эту историю?' });
    expect(sheet).toHaveAttribute('aria-modal', 'true');
    expect(sheet.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(
      screen.queryByRole('dialog', { name: 'Почему вы жалуетесь на эту историю?' }),
    ).not.toBeInTheDocument();
    expect(viewerEl()).toBeInTheDocument();
    expect(more).toHaveFocus();
  });

  it('the owner’s viewers sheet closes on Escape and gives focus back to its button', async () => {
    stubApi({ viewers: [] });
    open([groupOf(me.id, [storyOf({ user_id: me.id })])]);
    const views = screen.getByRole('button', { name: /Просмотры/ });
    views.focus();
    fireEvent.click(views);
    expect(screen.getByRole('dialog', { name: 'Просмотры' })).toBeInTheDocument();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Просмотры' })).not.toBeInTheDocument();
    expect(views).toHaveFocus();
  });
});

describe('StoryViewer: closing by a tap', () => {
  it('the tap that closes the viewer after the last story does not also click what lies beneath', () => {
    stubApi();
    const tile = vi.fn();
    const beneath = document.createElement('button');
    beneath.textContent = 'плитка';
    beneath.addEventListener('click', tile);
    document.body.append(beneath);
    open([groupOf(9, [storyOf()])]);
    const stage = screen.getByTestId('story-stage');
    vi.spyOn(stage, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 300, 600));

    fireEvent.pointerDown(stage, { button: 0, clientX: 280, clientY: 300 });
    fireEvent.pointerUp(stage, { button: 0, clientX: 280, clientY: 300 });
    expect(screen.queryByTestId('story-viewer')).toBeNull();
    // The browser dispatches the same tap's click after pointerup, at whatever is now under the finger.
    fireEvent.click(beneath);
    expect(tile).not.toHaveBeenCalled();
    // A later, deliberate tap opens it.
    fireEvent.click(beneath);
    expect(tile).toHaveBeenCalledTimes(1);
    beneath.remove();
  });
});

describe('StoryViewer: the like button', () => {
  it('its name carries the count it shows', () => {
    stubApi();
    open([groupOf(9, [storyOf({ likes_count: 4 })])]);
    const like = screen.getByTestId('story-like');
    expect(like).toHaveAccessibleName('Нравится, 4');
    expect(like).toHaveTextContent('4');
  });
});

describe('StoryViewer: what the author sees', () => {
  it('how long the story has left, and which viewers liked it', async () => {
    const liker = {
      id: 1,
      user: { id: 21, username: 'vera', name: 'Вера', display_name: 'Вера', avatar_url: null },
    };
    const other = {
      id: 2,
      user: { id: 22, username: 'gleb', name: 'Глеб', display_name: 'Глеб', avatar_url: null },
    };
    stubApi({
      viewers: [
        { ...liker, viewed_at: new Date().toISOString(), liked: true },
        { ...other, viewed_at: new Date().toISOString(), liked: false },
      ],
    });
    const own = storyOf({
      user_id: me.id,
      views_count: 2,
      expires_at: new Date(Date.now() + 5 * 3_600_000 + 60_000).toISOString(),
    });
    open([groupOf(me.id, [own])]);
    expect(screen.getByTestId('story-expires')).toHaveTextContent('исчезнет через 5 ч');
    fireEvent.click(screen.getByRole('button', { name: /Просмотры: 2/ }));
    const list = await screen.findByTestId('story-viewers');
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Вера');
    expect(within(rows[0] as HTMLElement).getByTestId('viewer-liked')).toHaveTextContent('нравится');
    expect(within(rows[1] as HTMLElement).queryByTestId('viewer-liked')).toBeNull();
  });

  it('a viewer does not see the expiry', () => {
    stubApi();
    open([groupOf(9, [storyOf()])]);
    expect(screen.queryByTestId('story-expires')).toBeNull();
  });
});
