import { afterEach, describe, expect, it, vi } from 'vitest';
import { postOf } from '../../test/posts.ts';
import { paintFrame } from './boot-script.ts';
import { frameHtml } from './frame.ts';

function photo(id: number, extra: Partial<Parameters<typeof postOf>[0]> = {}) {
  return postOf({
    id,
    files: [
      {
        file_url: `/files/p${id}.webp`,
        thumbnail_url: `/files/t${id}.webp`,
        file_type: 'image',
        width: 1080,
        height: 1440,
        duration: null,
      },
    ],
    ...extra,
  });
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  Reflect.deleteProperty(HTMLImageElement.prototype, 'decode');
});

describe('the boot script paints the first screen into the frame', () => {
  it('a grid: the first tile at once (sized, fetched first), the rest once it has been painted, never a hidden post', async () => {
    document.body.innerHTML = frameHtml('home');
    let decoded: () => void = () => {};
    // jsdom decodes nothing: the test says when the first picture is ready to paint.
    Object.defineProperty(HTMLImageElement.prototype, 'decode', {
      configurable: true,
      value: () => new Promise<void>((resolve) => (decoded = resolve)),
    });
    const frames: Array<() => void> = [];
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => frames.push(run));
    paintFrame('following', [photo(1), photo(2, { is_filtered: true }), photo(3)]);

    const slots = [...document.querySelectorAll('.kf-grid > i')];
    const first = slots[0]?.querySelector('img');
    expect(first?.getAttribute('src')).toBe('/files/t1.webp');
    // The thumbnail's own size (360 on the long side), as the page's tile names it.
    expect([first?.getAttribute('width'), first?.getAttribute('height')]).toEqual(['270', '360']);
    expect(first?.getAttribute('fetchpriority')).toBe('high');
    expect(first?.alt).toBe('');
    // Nothing else downloads before the first tile has been painted.
    expect(document.querySelectorAll('.kf-grid img')).toHaveLength(1);

    decoded();
    await Promise.resolve();
    await Promise.resolve();
    frames.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(slots[1]?.querySelector('img')).toBeNull();
    expect(slots[2]?.querySelector('img')?.getAttribute('src')).toBe('/files/t3.webp');
    expect(slots[2]?.querySelector('img')?.hasAttribute('fetchpriority')).toBe(false);
  });

  it('the feed: its first post’s photo at the size the feed shows it; a hidden one stays covered', () => {
    document.body.innerHTML = frameHtml('media');
    paintFrame('feed', [photo(7)]);
    const img = document.querySelector('.kf-media > img');
    expect(img?.getAttribute('src')).toBe('/files/p7.webp');
    expect([img?.getAttribute('width'), img?.getAttribute('height')]).toEqual(['1080', '1440']);

    document.body.innerHTML = frameHtml('media');
    paintFrame('feed', [photo(8, { is_filtered: true })]);
    expect(document.querySelector('.kf-media img')).toBeNull();
  });

  it('paints nothing once the frame has gone (the app is there first)', () => {
    document.body.innerHTML = frameHtml('home').replace(' data-frame="home"', '');
    paintFrame('following', [photo(1)]);
    expect(document.querySelector('img')).toBeNull();
  });
});
