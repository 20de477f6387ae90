import { touchSwipe } from '../../touch-swipe.ts';
import { playedBetween } from '../../video-time.ts';
import { signIn, uniqueUsername } from '../api.ts';
import type { Page } from '../driver.ts';
import type { Flow, FlowContext } from '../flow.ts';
import { css, role, testId } from '../target.ts';

const current = css('article[aria-current="true"]');

/** An author with a processed video and a processed photo, shared by the engines. */
export function feedAuthor({ api, media, once }: FlowContext) {
  return once('feed-author', async () => {
    const author = await api.register(uniqueUsername('feedauthor'), 'Автор Ленты');
    const videoId = await api.mediaPost(
      author,
      media.video('engines-clip.mp4', 3),
      'video/mp4',
      'Видео для движков',
    );
    const photo = await media.image('engines-photo.jpg', 120, 'jpg');
    const photoId = await api.mediaPost(author, photo, 'image/jpeg', 'Фото для движков');
    return { author, videoId, photoId };
  });
}

/** A finger swipe on the feed (see touchSwipe). */
function swipe(page: Page, dy: number): Promise<void> {
  return page.evaluate(touchSwipe, '[aria-roledescription="feed"]', { dx: 0, dy, from: { x: 140, y: 420 } });
}

const videoTime = (page: Page) =>
  page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('article[aria-current="true"] video');
    return video
      ? {
          state: video.dataset.state ?? '',
          at: video.currentTime,
          length: video.duration,
          muted: video.muted,
        }
      : null;
  });

/**
 * Waits until a playing video's time has moved on by `seconds`, counting across its loops (`playedBetween`):
 * the feed loops a 3-second clip, so a first reading at 2.8 s can never be followed by one past 3.1 s.
 */
async function untilAdvanced(page: Page, seconds: number): Promise<void> {
  let last = (await videoTime(page))?.at ?? 0;
  let moved = 0;
  await page.until(`the video time advancing by ${seconds} s`, async () => {
    const now = await videoTime(page);
    if (!now) throw new Error('no current video');
    moved += playedBetween(last, now.at, now.length);
    last = now.at;
    // Thrown, not returned: the step's error then says where the video stood.
    if (moved <= seconds)
      throw new Error(
        `moved ${moved.toFixed(2)} s, at ${now.at.toFixed(2)} of ${now.length} s, ${now.state}`,
      );
    return true;
  });
}

/** The media feed: a post opened by link, a like that the server keeps, a swipe to the next, a video that plays. */
export const feed: Flow = {
  id: 'feed',
  name: 'Лента: свайп, видео, лайк',
  async run(ctx) {
    const { engine, api, newPage, shot, note } = ctx;
    const { videoId, photoId } = await feedAuthor(ctx);
    const viewer = await api.register(uniqueUsername(`${engine.slice(0, 2)}feed`), 'Зритель');
    const page = await newPage();
    await signIn(page, viewer, `/media/${photoId}`);
    await page.waitForAttribute(current, 'data-post-id', String(photoId), 60_000);

    // Like: the button reads pressed, its count moves by one, and the server has it. The post is shared by
    // the engines running side by side, so the count is read, not assumed.
    const like = role('button', /^Нравится \d+$/, current);
    const countNow = async () => Number(await page.textOf(testId('likes-count', current)));
    const before = await countNow();
    await page.click(like);
    await page.waitForAttribute(like, 'aria-pressed', 'true');
    await page.until(`likes count above ${before}`, async () => (await countNow()) > before);
    // Another engine's like may move the count first: wait for the server to hold this viewer's own.
    await page.until(
      'the server has the like',
      async () => (await api.post(viewer, photoId)).post.is_liked === true,
    );
    await shot(page, 'liked');

    // A swipe up moves to another post.
    await swipe(page, -320);
    await page.until('the next post', async () => {
      const id = await page.attribute(current, 'data-post-id');
      return id !== null && id !== String(photoId);
    });

    // The video plays (muted autoplay, inline) and its time advances.
    await page.goto(`/media/${videoId}`);
    await page.waitForAttribute(current, 'data-post-id', String(videoId), 60_000);
    await page.until('the video playing', async () => (await videoTime(page))?.state === 'playing', 60_000);
    await untilAdvanced(page, 0.3);
    // Where the engine refused audible autoplay (WebKit, Firefox by default) the video started muted and the
    // post offers «Включить звук»; a tap on it gives the sound back.
    const playing = await videoTime(page);
    if (playing?.muted) {
      await page.click(role('button', 'Включить звук', current));
      await page.until('the video unmuted', async () => (await videoTime(page))?.muted === false);
      note('видео стартует без звука, звук — по нажатию');
    }
    await shot(page, 'video');
  },
};
