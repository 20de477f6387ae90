import { readFileSync } from 'node:fs';
import { apiUrl } from '@kadr/contract/browser';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import {
  auth,
  MEDIA_PROCESSING_MS,
  registerViaApi,
  type Session,
  storeSessionBeforeLoad,
  uniqueUsername,
  withMediaProcessing,
} from './helpers.ts';
import { mediaFixtures } from './media-fixtures.ts';
import { type APIRequestContext, expect, type Page, test } from './test.ts';
import { touchSwipe } from './touch-swipe.ts';

interface ApiPost {
  id: number;
  status: string;
  ai_tags: string[];
  media_type: string;
}

const fixtures = mediaFixtures();

async function postsOf(request: APIRequestContext, session: Session): Promise<ApiPost[]> {
  const response = await request.get(
    apiUrl(mediaEndpoints.userPosts, { username: session.user.username }, { limit: 50 }),
    {
      headers: auth(session),
    },
  );
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { posts: ApiPost[] }).posts;
}

async function waitProcessed(request: APIRequestContext, session: Session, id: number): Promise<ApiPost> {
  let post: ApiPost | undefined;
  await expect
    .poll(
      async () => {
        const r = await request.get(apiUrl(mediaEndpoints.post, { id }), { headers: auth(session) });
        post = ((await r.json()) as { post: ApiPost }).post;
        return post.status;
      },
      { timeout: MEDIA_PROCESSING_MS, intervals: [1000] },
    )
    .toBe('done');
  return post as ApiPost;
}

/** Uploads through the modal with the upload link throttled, so the progress bar is really seen. */
async function uploadThroughModal(page: Page, files: string[], caption: string) {
  await page.goto('/home');
  await page.getByRole('button', { name: 'Создать' }).click();
  await page.getByRole('dialog', { name: 'Создать' }).getByRole('button', { name: 'Публикация' }).click();
  const modal = page.getByRole('dialog', { name: 'Новая публикация' });
  await modal.getByLabel('Видео или изображения').setInputFiles(files);
  await modal.getByLabel('Подпись').fill(caption);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 150 * 1024,
  });
  await modal.getByRole('button', { name: 'Опубликовать' }).click();
  const bar = modal.getByRole('progressbar', { name: 'Загрузка' });
  await expect(bar).toBeVisible();
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow').catch(() => '100')))
    .toBeGreaterThan(0);
  await expect(modal.getByRole('button', { name: 'Опубликовать' })).toBeDisabled();
  await expect(modal.getByText('ИИ-обработка...')).toBeVisible({ timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(modal.getByText('Готово! Публикация опубликована')).toBeVisible({
    timeout: MEDIA_PROCESSING_MS,
  });
  await expect(modal).toBeHidden({ timeout: 5_000 });
  await cdp.detach();
}

const active = (page: Page) => page.locator('article[aria-current="true"]');

/** A finger swipe on the feed, away from the buttons (see touchSwipe). */
async function swipe(page: Page, dx: number, dy: number) {
  await page
    .locator('[aria-roledescription="feed"]')
    .evaluate(touchSwipe, { dx, dy, from: { x: 140, y: 420 } });
}

test('upload a video and a carousel, swipe, like, comment, save, my actions, delete', async ({ page }) => {
  test.setTimeout(withMediaProcessing(240_000, 2));
  const me = await registerViaApi(page.request, uniqueUsername('feed'), 'Автор Ленты');
  await storeSessionBeforeLoad(page, me);
  const video = fixtures.video('clip.mp4', 3);
  const images = [
    await fixtures.image('one.png', 10),
    await fixtures.image('two.jpg', 90, 'jpg'),
    await fixtures.image('three.png', 170),
  ];

  // §5 client check: a file that is neither video nor image is refused at once.
  await page.goto('/home');
  await page.getByRole('button', { name: 'Создать' }).click();
  await page.getByRole('button', { name: 'Публикация' }).click();
  // A wrong file is refused inside the form (never a browser alert).
  await page
    .getByLabel('Видео или изображения')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('dialog', { name: 'Новая публикация' }).getByRole('alert')).toHaveText(
    'Пожалуйста, выберите видео или изображения',
  );

  await uploadThroughModal(page, [video], 'Тестовое видео');
  await uploadThroughModal(page, images, 'Три картинки');
  const [carousel, clip] = await postsOf(page.request, me);
  expect(carousel?.media_type).toBe('carousel');
  expect(clip?.media_type).toBe('video');
  if (!carousel || !clip) throw new Error('uploads missing');

  // Newest first: the carousel, then the video.
  await page.goto('/media');
  await expect(active(page)).toHaveAttribute('data-post-id', String(carousel.id));
  await expect(active(page).getByText('Фото 1 из 3')).toBeAttached();
  await swipe(page, -160, 0);
  await expect(active(page).getByText('Фото 2 из 3')).toBeAttached();
  await swipe(page, 0, -220);
  await expect(active(page)).toHaveAttribute('data-post-id', String(clip.id));
  await expect(active(page).locator('video')).toHaveAttribute('data-state', 'playing');
  await swipe(page, 0, 220);
  await expect(active(page)).toHaveAttribute('data-post-id', String(carousel.id));
  await swipe(page, 0, -220);
  await expect(active(page)).toHaveAttribute('data-post-id', String(clip.id));

  // #18 item 8: a thin seek bar under the video; dragging it moves the video, never the feed.
  const seek = active(page).getByRole('slider', { name: 'Позиция видео' });
  await expect(seek).toBeVisible();
  const bar = await seek.boundingBox();
  if (!bar) throw new Error('seek bar not laid out');
  expect(bar.height).toBeLessThanOrEqual(24);
  await page.mouse.move(bar.x + 4, bar.y + bar.height / 2);
  await page.mouse.down();
  await page.mouse.move(bar.x + bar.width * 0.5, bar.y + bar.height / 2, { steps: 5 });
  await page.mouse.move(bar.x + bar.width * 0.9, bar.y + bar.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect
    .poll(() =>
      active(page)
        .locator('video')
        .evaluate((v: HTMLVideoElement) => v.currentTime),
    )
    .toBeGreaterThan(1.5);
  await expect(active(page)).toHaveAttribute('data-post-id', String(clip.id));

  // Double tap likes with a heart; the count survives a reload (which restores the position).
  await page.mouse.dblclick(140, 420);
  await expect(page.getByRole('img', { name: 'Вам понравилось' })).toBeVisible();
  const like = active(page).getByRole('button', { name: 'Нравится' });
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(active(page).getByTestId('likes-count')).toHaveText('1');
  await expect.poll(async () => (await postsOf(page.request, me))[1]?.id).toBe(clip.id);
  await page.reload();
  await expect(active(page)).toHaveAttribute('data-post-id', String(clip.id));
  await expect(active(page).getByTestId('likes-count')).toHaveText('1');
  await expect(active(page).getByRole('button', { name: 'Нравится' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Comment.
  await active(page).getByRole('button', { name: 'Комментарии' }).click();
  const comments = page.getByRole('dialog', { name: 'Комментарии' });
  await expect(comments.getByText('Пока нет комментариев')).toBeVisible();
  await comments.getByLabel('Добавьте комментарий...').fill('  Отличное видео!  ');
  await comments.getByRole('button', { name: 'Отправить' }).click();
  await expect(comments.getByText('Отличное видео!')).toBeVisible();
  await comments.getByRole('button', { name: 'Закрыть' }).click();
  await expect(active(page).getByTestId('comments-count')).toHaveText('1');

  // Save.
  const save = active(page).getByRole('button', { name: 'Сохранить' });
  await save.click();
  await expect(save).toHaveAttribute('aria-pressed', 'true');

  // My actions: liked and saved; opening one enters actions mode, back returns to the feed position.
  await page.getByRole('button', { name: 'Открыть меню' }).click();
  await page.getByRole('menuitem', { name: 'Мои действия' }).click();
  const panel = page.getByRole('dialog', { name: 'Мои действия' });
  await expect(panel.getByRole('tab', { name: 'Понравилось' })).toHaveAttribute('aria-selected', 'true');
  await expect(panel.locator(`[data-post-id="${clip.id}"]`)).toBeVisible();
  await panel.getByRole('tab', { name: 'Сохранённое' }).click();
  await expect(panel.getByRole('button', { name: /Открыть публикацию/ })).toHaveCount(1);
  await panel.getByRole('button', { name: 'Открыть публикацию 1' }).click();
  await expect(page.getByRole('heading', { name: 'Мои действия: Сохранённое' })).toBeVisible();
  await expect(active(page)).toHaveAttribute('data-post-id', String(clip.id));
  await page.getByRole('button', { name: 'Назад к ленте' }).click();
  await expect(page.getByRole('heading', { name: 'Мои действия: Сохранённое' })).toBeHidden();
  await expect(active(page)).toHaveAttribute('data-post-id', String(clip.id));

  // Delete the own post from the menu after the confirmation.
  await page.getByRole('button', { name: 'Открыть меню' }).click();
  const confirms: string[] = [];
  page.once('dialog', (dialog) => {
    confirms.push(dialog.message());
    void dialog.accept();
  });
  await page.getByRole('menuitem', { name: 'Удалить публикацию' }).click();
  await expect.poll(() => confirms).toEqual(['Вы уверены, что хотите удалить эту публикацию?']);
  await expect(page.locator(`article[data-post-id="${clip.id}"]`)).toHaveCount(0);
  const gone = await page.request.get(apiUrl(mediaEndpoints.post, { id: clip.id }), { headers: auth(me) });
  expect(gone.status()).toBe(404);
});

test('hidden tags show an overlay that Посмотреть lifts; sleep mode shows only for_sleep posts', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const author = await registerViaApi(page.request, uniqueUsername('calm'), 'Спокойный');
  const viewer = await registerViaApi(page.request, uniqueUsername('viewer'), 'Зритель');
  const upload = async (path: string, caption: string) => {
    const response = await page.request.post(apiUrl(mediaEndpoints.upload), {
      headers: auth(author),
      multipart: {
        files: {
          name: path.split('/').pop() ?? 'x',
          mimeType: 'image/jpeg',
          buffer: readFileSync(path),
        },
        caption,
        media_type: 'photo',
      },
    });
    expect(response.status()).toBeLessThan(300);
    return ((await response.json()) as { post: ApiPost }).post.id;
  };
  const darkId = await upload(await fixtures.darkImage('night.jpg'), 'Ночь');
  const brightId = await upload(await fixtures.image('day.jpg', 40, 'jpg'), 'День');
  await waitProcessed(page.request, author, darkId);
  await waitProcessed(page.request, author, brightId);
  // The author marks the night picture calm, whatever the tagger decided.
  const marked = await page.request.patch(apiUrl(mediaEndpoints.update, { id: darkId }), {
    headers: auth(author),
    data: { for_sleep: true },
  });
  expect(marked.ok()).toBe(true);

  await storeSessionBeforeLoad(page, viewer);
  await page.goto('/media');
  await expect(active(page)).toHaveAttribute('data-post-id', String(brightId));

  // Hide 'Для сна' → the night post is behind the overlay until 'Посмотреть'.
  await page.getByRole('button', { name: 'Настройки ленты' }).click();
  const prefs = page.getByRole('dialog', { name: 'Настройки ленты' });
  await prefs.getByLabel('Для сна').check();
  await expect(prefs.getByLabel('Для сна')).toBeChecked();
  await prefs.getByRole('button', { name: 'Закрыть' }).click();
  await page.keyboard.press('ArrowDown');
  await expect(active(page)).toHaveAttribute('data-post-id', String(darkId));
  await expect(active(page).getByText('Вы скрыли подобное от себя')).toBeVisible();
  await active(page).getByRole('button', { name: 'Посмотреть' }).click();
  await expect(active(page).getByText('Вы скрыли подобное от себя')).toBeHidden();
  await expect(active(page).getByRole('img', { name: /./ }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Настройки ленты' }).click();
  await prefs.getByLabel('Для сна').uncheck();
  await expect(prefs.getByLabel('Для сна')).not.toBeChecked();
  await prefs.getByRole('button', { name: 'Закрыть' }).click();

  // Sleep mode: only for_sleep posts.
  await page.getByRole('button', { name: 'Режимы' }).click();
  await page
    .getByRole('dialog', { name: 'Режимы' })
    .getByLabel(/Режим сна/)
    .check();
  await page.getByRole('dialog', { name: 'Режимы' }).getByRole('button', { name: 'Закрыть' }).click();
  await expect(active(page)).toHaveAttribute('data-post-id', String(darkId));
  const feed = await page.request.get(apiUrl(mediaEndpoints.feed, undefined, { offset: 0, limit: 50 }), {
    headers: auth(viewer),
  });
  const sleepy = new Set(
    ((await feed.json()) as { posts: ApiPost[] }).posts
      .filter((p) => p.ai_tags.includes('for_sleep'))
      .map((p) => p.id),
  );
  const shown = await page
    .locator('article[data-post-id]')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-post-id'))));
  expect(shown.length).toBeGreaterThan(0);
  for (const id of shown) expect(sleepy.has(id)).toBe(true);
  expect(shown).not.toContain(brightId);
  expect(await page.evaluate(() => localStorage.getItem('mediaMode'))).toBe('sleep');
  await page.reload();
  await expect(active(page)).toHaveAttribute('data-post-id', String(darkId));

  // Profile mode: the profile's grid opens the feed on that post; back returns to the profile.
  await page.goto(`/${author.user.username}`);
  await page.getByRole('button', { name: 'Открыть публикацию 2' }).click();
  await expect(page.getByRole('heading', { name: `Профиль: @${author.user.username}` })).toBeVisible();
  await expect(active(page)).toHaveAttribute('data-post-id', String(darkId));
  await page.keyboard.press('ArrowUp');
  await expect(active(page)).toHaveAttribute('data-post-id', String(brightId));
  await page.getByRole('button', { name: 'Назад к профилю' }).click();
  await expect(page).toHaveURL(new RegExp(`/${author.user.username}$`));
  await expect(page.getByRole('heading', { name: 'Спокойный' })).toBeVisible();
});

test('@desktop a click toggles play, the mute button shows, the wheel moves, the menu rotates the video', async ({
  page,
}) => {
  test.setTimeout(withMediaProcessing(120_000, 2));
  const me = await registerViaApi(page.request, uniqueUsername('desk'), 'Настольный');
  const ids: number[] = [];
  for (const [i, name] of ['desk-a.mp4', 'desk-b.mp4'].entries()) {
    const response = await page.request.post(apiUrl(mediaEndpoints.upload), {
      headers: auth(me),
      multipart: {
        files: { name, mimeType: 'video/mp4', buffer: readFileSync(fixtures.video(name, 2 + i)) },
        caption: name,
        media_type: 'video',
      },
    });
    expect(response.status()).toBeLessThan(300);
    ids.push(((await response.json()) as { post: ApiPost }).post.id);
  }
  for (const id of ids) await waitProcessed(page.request, me, id);
  const [first, second] = [...ids].reverse();

  await storeSessionBeforeLoad(page, me);
  await page.goto('/media');
  await expect(active(page)).toHaveAttribute('data-post-id', String(first));
  const video = active(page).locator('video');
  await expect(video).toHaveAttribute('data-state', 'playing');
  await expect(active(page).getByRole('button', { name: /Выключить звук|Включить звук/ })).toBeVisible();

  const box = await video.boundingBox();
  if (!box) throw new Error('video not visible');
  await page.mouse.click(box.x + box.width / 3, box.y + box.height / 2);
  await expect(active(page).getByText('Пауза')).toBeVisible();
  await expect(video).toHaveAttribute('data-state', 'paused');
  await page.mouse.click(box.x + box.width / 3, box.y + box.height / 2);
  await expect(video).toHaveAttribute('data-state', 'playing');

  await page.mouse.click(box.x + box.width / 3, box.y + box.height / 2, { button: 'right' });
  await page.getByRole('menuitem', { name: 'Повернуть видео' }).click();
  await expect(video).toHaveAttribute('style', /rotate\(90deg\)/);

  await page.mouse.move(box.x + box.width / 3, box.y + box.height / 2);
  await page.mouse.wheel(0, 120);
  await expect(active(page)).toHaveAttribute('data-post-id', String(second));
  await expect(active(page).locator('video')).toHaveAttribute('data-state', 'playing');
});
