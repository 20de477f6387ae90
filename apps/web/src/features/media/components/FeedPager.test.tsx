import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { me } from '../../../test/fixtures.ts';
import { postOf } from '../../../test/posts.ts';
import { useAuthStore } from '../../auth/auth-store.ts';
import { mediaKeys } from '../api/media-keys.ts';
import { useFeedUi } from '../feed-ui-store.ts';
import { FeedPager } from './FeedPager.tsx';

const infoRenders = vi.hoisted(() => ({ count: 0 }));
// A post's info and actions, counting its renders (a render of the post renders it).
vi.mock('./PostInfo.tsx', async (original) => {
  const { counted } = await import('../../../test/render-count.ts');
  return counted(await original<typeof import('./PostInfo.tsx')>(), 'PostInfo', infoRenders);
});

const image = (n: number) => ({
  file_url: `/files/${n}.webp`,
  thumbnail_url: null,
  // The third photo was processed before the screen variant existed.
  screen_url: n < 3 ? `/files/${n}.screen.webp` : null,
  file_type: 'image' as const,
  width: 1080,
  height: 1440,
  duration: null,
});
const posts = [
  postOf({ id: 1, files: [image(1), image(2), image(3)], media_type: 'carousel' }),
  postOf({ id: 2 }),
  postOf({ id: 3, ai_tags: ['cats'] }),
];

function renderPager(index: number, extra: { onRefresh?: () => void; blacklist?: Set<string> } = {}) {
  const onIndex = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <FeedPager
          posts={posts}
          index={index}
          onIndex={onIndex}
          blacklist={extra.blacklist ?? new Set()}
          onRefresh={extra.onRefresh}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { onIndex, pager: screen.getByLabelText('Лента публикаций') };
}

/**
 * A quick drag: jsdom stamps events with `Date.now()`, so the clock is held still while they are fired — on a loaded
 * machine four renders can otherwise outlast a quick swipe's time limit and the swipe reads as a slow drag.
 */
function drag(el: HTMLElement, dx: number, dy: number) {
  const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now());
  fireEvent.pointerDown(el, { pointerId: 1, button: 0, clientX: 100, clientY: 400 });
  fireEvent.pointerMove(el, { pointerId: 1, clientX: 100 + dx / 2, clientY: 400 + dy / 2 });
  fireEvent.pointerMove(el, { pointerId: 1, clientX: 100 + dx, clientY: 400 + dy });
  fireEvent.pointerUp(el, { pointerId: 1, clientX: 100 + dx, clientY: 400 + dy });
  clock.mockRestore();
}

describe('FeedPager', () => {
  beforeEach(() => useFeedUi.setState({ revealed: new Set(), interfaceHidden: false }));

  it('a drag moves the track without rendering the posts again', () => {
    const { pager } = renderPager(0);
    const track = pager.querySelector<HTMLElement>('[data-dragging]');
    const before = infoRenders.count;
    const at = track?.style.transform;
    fireEvent.pointerDown(pager, { pointerId: 1, button: 0, clientX: 100, clientY: 400 });
    fireEvent.pointerMove(pager, { pointerId: 1, clientX: 100, clientY: 360 });
    fireEvent.pointerMove(pager, { pointerId: 1, clientX: 100, clientY: 320 });
    expect(track?.style.transform).not.toBe(at);
    expect(infoRenders.count).toBe(before);
  });

  it('a quick swipe up moves to the next post, down to the previous', () => {
    const { onIndex, pager } = renderPager(1);
    drag(pager, 0, -120);
    expect(onIndex).toHaveBeenLastCalledWith(2);
    drag(pager, 0, 120);
    expect(onIndex).toHaveBeenLastCalledWith(0);
  });

  it('a short drag does not move', () => {
    const { onIndex, pager } = renderPager(1);
    drag(pager, 0, -40);
    expect(onIndex).not.toHaveBeenCalled();
  });

  it('the wheel moves one post per 300 ms', () => {
    const { onIndex, pager } = renderPager(0);
    fireEvent.wheel(pager, { deltaY: 30 });
    fireEvent.wheel(pager, { deltaY: 30 });
    expect(onIndex).toHaveBeenCalledTimes(1);
    expect(onIndex).toHaveBeenCalledWith(1);
  });

  it('swiping down on the first post refreshes', () => {
    const onRefresh = vi.fn();
    const { onIndex, pager } = renderPager(0, { onRefresh });
    drag(pager, 0, 200);
    expect(onRefresh).toHaveBeenCalledTimes(1);
    expect(onIndex).not.toHaveBeenCalled();
  });

  it('a horizontal swipe of 50 px moves the carousel', () => {
    const { onIndex, pager } = renderPager(0);
    expect(screen.getAllByText('Фото 1 из 3').length).toBeGreaterThan(0);
    drag(pager, -80, 0);
    expect(onIndex).not.toHaveBeenCalled();
    expect(screen.getAllByText('Фото 2 из 3').length).toBeGreaterThan(0);
  });

  it('a carousel slide shows the photo’s screen variant, sized; a photo from before it its feed file', () => {
    renderPager(0);
    const slides = [...document.querySelectorAll('[data-post-id="1"] img')].map((img) => [
      img.getAttribute('src'),
      img.getAttribute('width'),
      img.getAttribute('height'),
    ]);
    expect(slides).toEqual([
      ['/files/1.screen.webp', '720', '960'],
      ['/files/2.screen.webp', '720', '960'],
      ['/files/3.webp', '1080', '1440'],
    ]);
  });

  it('hides a post with a blacklisted tag until Посмотреть', () => {
    renderPager(2, { blacklist: new Set(['cats']) });
    expect(screen.getByText('Вы скрыли подобное от себя')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Посмотреть' }));
    expect(screen.queryByText('Вы скрыли подобное от себя')).not.toBeInTheDocument();
  });

  it('a vertical swipe that starts on a hidden post moves on (touch has no wheel or arrow keys)', () => {
    const { onIndex } = renderPager(2, { blacklist: new Set(['cats']) });
    drag(screen.getByText('Вы скрыли подобное от себя'), 0, 120);
    expect(onIndex).toHaveBeenLastCalledWith(1);
  });

  it('on a video: a tap pauses, a double tap likes with a heart, a held press plays at 2×', async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
    const fetch = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    useAuthStore.setState({ auth: { status: 'signedIn', token: 't', user: me } });
    const clip = postOf({
      id: 9,
      media_type: 'video',
      files: [{ ...image(9), file_url: '/files/9.mp4', file_type: 'video', duration: 2 }],
    });
    const onIndex = vi.fn();
    const queryClient = new QueryClient();
    // As in the app, the posts on screen are the cached ones (the like overlay is keyed by them).
    queryClient.setQueryData(mediaKeys.feed(), {
      pages: [{ posts: [clip], has_more: false }],
      pageParams: [0],
    });
    render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <FeedPager posts={[clip]} index={0} onIndex={onIndex} blacklist={new Set()} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const pager = screen.getByLabelText('Лента публикаций');
    const tap = () => {
      fireEvent.pointerDown(pager, { pointerId: 1, button: 0, clientX: 50, clientY: 50 });
      fireEvent.pointerUp(pager, { pointerId: 1, clientX: 50, clientY: 50 });
    };
    tap();
    expect(await screen.findByText('Пауза')).toBeInTheDocument();
    tap();
    await waitFor(() => expect(screen.queryByText('Пауза')).not.toBeInTheDocument());

    await new Promise((r) => setTimeout(r, 350));
    tap();
    tap();
    expect(screen.getByRole('img', { name: 'Вам понравилось' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Нравится/ })).toHaveAttribute('aria-pressed', 'true');
    await new Promise((r) => setTimeout(r, 350));
    expect(screen.queryByText('Пауза')).not.toBeInTheDocument();

    fireEvent.pointerDown(pager, { pointerId: 1, button: 0, clientX: 50, clientY: 50 });
    expect(await screen.findByText('2×')).toBeInTheDocument();
    // The rate is applied in the player's effect, which may run just after the label paints.
    await waitFor(() => expect((pager.querySelector('video') as HTMLVideoElement).playbackRate).toBe(2));
    fireEvent.pointerUp(pager, { pointerId: 1, clientX: 50, clientY: 50 });
    await waitFor(() => expect(screen.queryByText('2×')).not.toBeInTheDocument());
    await waitFor(() => expect((pager.querySelector('video') as HTMLVideoElement).playbackRate).toBe(1));
    expect(screen.queryByText('Пауза')).not.toBeInTheDocument();
  });

  it('the context menu rotates nothing on a photo but toggles the interface', () => {
    const { pager } = renderPager(1);
    fireEvent.contextMenu(pager, { clientX: 10, clientY: 10 });
    const menu = screen.getByRole('menu', { name: 'Действия с публикацией' });
    expect(menu).not.toHaveTextContent('Повернуть видео');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Скрыть интерфейс' }));
    expect(useFeedUi.getState().interfaceHidden).toBe(true);
    expect(screen.queryByRole('button', { name: /^Нравится/ })).not.toBeInTheDocument();
  });
});
