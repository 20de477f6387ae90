import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, messageOf } from '../../test/fixtures.ts';
import { postOf } from '../../test/posts.ts';
import { frameText, paintFrame, paintMessages, paintStory, storyImage } from './boot-script.ts';
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

  it('a chat: its newest messages, oldest first, the own ones on the right, in bubbles; the rest stays a skeleton', () => {
    document.body.innerHTML = frameHtml('chat');
    const peer = 9;
    paintMessages(
      [
        messageOf(12, me.id, { content: 'Давай, в кафе у набережной в 12:00' }),
        messageOf(11, peer, { content: 'Привет! Как дела?' }),
        messageOf(13, peer, { content: '**жирный** текст' }),
        messageOf(14, peer, { message_type: 'service', content: 'Борис вступил в группу' }),
      ],
      me.id,
    );
    const rows = [...document.querySelectorAll('.kf-msgs > .kf-list > .kf-m')];
    expect(rows.map((row) => row.querySelector('.kf-bub > p')?.textContent ?? null)).toEqual([
      'Привет! Как дела?',
      'Давай, в кафе у набережной в 12:00',
      null,
    ]);
    expect(rows.map((row) => row.classList.contains('kf-own'))).toEqual([false, true, false]);
    // The markup the page renders otherwise is a skeleton bubble, never its source text.
    expect(rows[2]?.querySelector('i.kf-b')).not.toBeNull();
    expect(document.body.textContent).not.toContain('жирный');
    // The skeleton the HTML came with is gone.
    expect(document.querySelectorAll('.kf-list > i')).toHaveLength(0);
  });

  it("a chat's emoji are the page's images, sized, with the emoji as their text", () => {
    document.body.innerHTML = frameHtml('chat');
    paintMessages([messageOf(1, 9, { content: 'Договорились 👍 🇷🇺' })], me.id);
    const p = document.querySelector('.kf-bub > p') as HTMLElement;
    expect(p.textContent).toBe('Договорились  ');
    expect(
      [...p.querySelectorAll('img')].map((img) => [img.alt, img.getAttribute('src'), img.width]),
    ).toEqual([
      ['👍', '/emoji/1f44d.svg', 20],
      ['🇷🇺', '/emoji/1f1f7-1f1fa.svg', 20],
    ]);
  });

  it('a chat keeps at most the newest twenty messages; nothing once the frame has gone', () => {
    document.body.innerHTML = frameHtml('chat');
    paintMessages(
      Array.from({ length: 30 }, (_, i) => messageOf(i + 1, 9)),
      me.id,
    );
    const texts = [...document.querySelectorAll('.kf-bub > p')].map((p) => p.textContent);
    expect(texts).toHaveLength(20);
    expect(texts[0]).toBe('сообщение 11');
    expect(texts.at(-1)).toBe('сообщение 30');

    document.body.innerHTML = frameHtml('chat').replace(' data-frame="chat"', '');
    paintMessages([messageOf(1, 9)], me.id);
    expect(document.querySelector('.kf-bub')).toBeNull();
  });

  it('draws only what the chat shows as plain text', () => {
    const plain = (overrides: Parameters<typeof messageOf>[2]) => frameText(messageOf(1, 9, overrides));
    expect(plain({ content: 'Смотри, какие фото я сделал вчера 📷' })).toBe(
      'Смотри, какие фото я сделал вчера 📷',
    );
    for (const content of [
      '_курсив_',
      '`код`',
      '~~нет~~',
      '[ссылка](/home)',
      '@boris привет',
      'https://example.org',
      '> цитата',
      'две\nстроки',
      '',
    ])
      expect(plain({ content }), content).toBeNull();
    expect(plain({ is_forwarded: true })).toBeNull();
    expect(plain({ message_type: 'call' })).toBeNull();
    expect(plain({ reactions: [{ reaction: '❤️', count: 1, user_ids: [9] }] as never })).toBeNull();
    expect(
      plain({
        files: [{ file_url: '/files/a.webp', file_type: 'image' }] as never,
      }),
    ).toBeNull();
  });

  it('a story opened by link: its screen variant over the home frame at the viewer’s size, a video’s poster, never a hidden one', () => {
    document.body.innerHTML = frameHtml('home');
    const story = (id: number, extra: Record<string, unknown> = {}) => ({
      id,
      media_type: 'photo',
      file_url: `/files/s${id}.webp`,
      thumbnail_url: `/files/s${id}-t.webp`,
      screen_url: `/files/s${id}-s.webp`,
      is_filtered: false,
      ...extra,
    });
    const group = (stories: unknown[], storyId: number) =>
      ({ group: { stories }, story_id: storyId }) as unknown as Parameters<typeof storyImage>[0];

    // A photo's screen variant (exactly 720×1280), the URL its viewer shows (`storyPicture`).
    paintStory(storyImage(group([story(1), story(2)], 2)));
    const img = document.querySelector('[data-frame] .kf-sv .kf-svf > img');
    expect(img?.getAttribute('src')).toBe('/files/s2-s.webp');
    expect([img?.getAttribute('width'), img?.getAttribute('height')]).toEqual(['720', '1280']);
    expect(img?.getAttribute('fetchpriority')).toBe('high');
    expect(img?.getAttribute('alt')).toBe('');

    // A photo without one (a small picture, a story from before the variant): its file at the story frame.
    for (const older of [story(6, { screen_url: null }), { ...story(7), screen_url: undefined }])
      expect(storyImage(group([older], older.id))).toEqual({
        src: `/files/s${older.id}.webp`,
        width: 1080,
        height: 1920,
      });
    expect(storyImage(group([story(3, { media_type: 'video', screen_url: null })], 3))).toEqual({
      src: '/files/s3-t.webp',
      width: 1080,
      height: 1920,
    });
    expect(storyImage(group([story(4, { is_filtered: true })], 4))).toBeNull();
    expect(storyImage(group([story(5, { file_url: null, screen_url: null })], 5))).toBeNull();
    expect(storyImage(group([story(8)], 9))).toBeNull();
  });
});
