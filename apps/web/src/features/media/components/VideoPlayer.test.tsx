import type { PostFile } from '@kadr/contract';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VideoPlayer } from './VideoPlayer.tsx';

const file: PostFile = {
  file_url: '/files/clip.mp4',
  thumbnail_url: '/files/clip.webp',
  file_type: 'video',
  width: 720,
  height: 1280,
  duration: 3,
};

const props = {
  file,
  alt: 'Видео',
  mode: 'auto' as const,
  rate: 1,
  muted: true,
  rotation: 0,
  onAutoplayMuted: () => {},
};

describe('VideoPlayer', () => {
  let load: ReturnType<typeof vi.fn<() => void>>;
  let play: ReturnType<typeof vi.fn<() => Promise<void>>>;

  beforeEach(() => {
    load = vi.fn<() => void>();
    play = vi.fn<() => Promise<void>>().mockResolvedValue(undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(load);
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play);
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
  });

  const video = () => screen.getByLabelText('Видео') as HTMLVideoElement;

  it('preloads with the policy mode and plays only when active, looping', () => {
    const { rerender } = render(<VideoPlayer {...props} preload="preload" mode="metadata" playing={false} />);
    expect(video().getAttribute('src')).toBe('/files/clip.mp4');
    expect(video().preload).toBe('metadata');
    expect(video().loop).toBe(true);
    fireEvent.loadedMetadata(video());
    expect(play).not.toHaveBeenCalled();
    rerender(<VideoPlayer {...props} preload="active" playing />);
    expect(video().preload).toBe('auto');
    expect(play).toHaveBeenCalled();
  });

  it('does not load outside the window and releases the video at the unload distance', () => {
    const { rerender } = render(<VideoPlayer {...props} preload="idle" playing={false} />);
    expect(video().getAttribute('src')).toBeNull();
    rerender(<VideoPlayer {...props} preload="preload" playing={false} />);
    expect(video().getAttribute('src')).toBe('/files/clip.mp4');
    load.mockClear();
    rerender(<VideoPlayer {...props} preload="unload" playing={false} />);
    expect(video().getAttribute('src')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
    expect(video().dataset.state).toBe('unloaded');
  });

  it('shows the §8 overlay on a load error and reloads on retry', async () => {
    render(<VideoPlayer {...props} preload="active" playing />);
    fireEvent.error(video());
    expect(screen.getByRole('alert')).toHaveTextContent('Не удалось загрузить медиа');
    expect(screen.getByRole('alert')).toHaveTextContent('Проверьте подключение или попробуйте позже.');
    load.mockClear();
    await userEvent.click(screen.getByRole('button', { name: 'Повторить попытку' }));
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(video().dataset.state).toBe('loading');
  });

  it('plays at 2× while held', () => {
    const { rerender } = render(<VideoPlayer {...props} preload="active" playing />);
    rerender(<VideoPlayer {...props} preload="active" playing rate={2} />);
    expect(video().playbackRate).toBe(2);
  });

  describe('seek bar', () => {
    /** jsdom plays nothing: the video reports this duration and records where it was sent. */
    function fakeMedia(element: HTMLVideoElement, duration: number) {
      const seeks: number[] = [];
      let at = 0;
      Object.defineProperty(element, 'duration', { configurable: true, get: () => duration });
      Object.defineProperty(element, 'currentTime', {
        configurable: true,
        get: () => at,
        set: (value: number) => {
          at = value;
          seeks.push(value);
        },
      });
      return seeks;
    }

    const bar = () => screen.getByRole('slider', { name: 'Позиция видео' }) as HTMLInputElement;

    it('appears on the active post once the duration is known, and follows playback', () => {
      const { rerender } = render(<VideoPlayer {...props} preload="preload" playing={false} />);
      fakeMedia(video(), 12);
      fireEvent.loadedMetadata(video());
      expect(screen.queryByRole('slider')).not.toBeInTheDocument();
      rerender(<VideoPlayer {...props} preload="active" playing />);
      expect(bar().max).toBe('12');
      video().currentTime = 4.5;
      fireEvent.timeUpdate(video());
      expect(bar().value).toBe('4.5');
      expect(bar()).toHaveAttribute('aria-valuetext', '4 / 12');
    });

    it('dragging the bar sets the video currentTime, and the drag is not the feed swipe', () => {
      const feedGesture = vi.fn();
      render(
        <div onPointerDown={feedGesture}>
          <VideoPlayer {...props} preload="active" playing />
        </div>,
      );
      const seeks = fakeMedia(video(), 10);
      fireEvent.loadedMetadata(video());
      fireEvent.pointerDown(bar());
      for (const value of ['2', '5.5', '7.25']) fireEvent.change(bar(), { target: { value } });
      fireEvent.pointerUp(bar());
      expect(seeks).toEqual([2, 5.5, 7.25]);
      expect(video().currentTime).toBe(7.25);
      expect(bar().value).toBe('7.25');
      expect(feedGesture).not.toHaveBeenCalled();
    });

    it('keys on the focused bar jump five seconds, Home and End to the ends', async () => {
      const user = userEvent.setup();
      render(<VideoPlayer {...props} preload="active" playing />);
      const seeks = fakeMedia(video(), 12);
      fireEvent.loadedMetadata(video());
      bar().focus();
      await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
      expect(seeks).toEqual([5, 10, 12]);
      await user.keyboard('{ArrowLeft}');
      expect(video().currentTime).toBe(7);
      expect(bar().value).toBe('7');
      await user.keyboard('{Home}');
      expect(video().currentTime).toBe(0);
      await user.keyboard('{End}');
      expect(video().currentTime).toBe(12);
    });
  });
});
