import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiUrl } from '@kadr/contract/browser';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import {
  auth,
  photoPostViaApi,
  registerViaApi,
  type Session,
  storeSessionBeforeLoad,
  uniqueUsername,
} from './helpers.ts';
import { type APIRequestContext, expect, type Locator, type Page, test } from './test.ts';

/**
 * Alt text a screen reader gets: a real photograph of a cat and a real clip (the same cat, slowly zoomed) go
 * through the offline tagger; the feed's image has its Russian sentence as `alt`, the video as its accessible
 * name; the author rewrites both from the post menu and the screen reader gets the new text at once.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const EVAL = join(root, 'apps/server/test/fixtures/eval-photos');
const SHOTS = join(root, 'test-results', 'alt-text');
const CYRILLIC = /[А-Яа-яЁё]/;

interface ApiPost {
  id: number;
  status: string;
  ai_description: string;
  ai_objects: string[];
}

async function postOf(request: APIRequestContext, session: Session, id: number): Promise<ApiPost> {
  const r = await request.get(apiUrl(mediaEndpoints.post, { id }), { headers: auth(session) });
  return ((await r.json()) as { post: ApiPost }).post;
}

async function videoPostViaApi(request: APIRequestContext, author: Session, file: string): Promise<number> {
  const response = await request.post(apiUrl(mediaEndpoints.upload), {
    headers: auth(author),
    multipart: {
      files: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: readFileSync(file) },
      caption: 'Кошка в кадре',
      media_type: 'video',
    },
  });
  expect(response.status()).toBeLessThan(300);
  const id = ((await response.json()) as { post: { id: number } }).post.id;
  await expect
    .poll(async () => (await postOf(request, author, id)).status, { timeout: 240_000 })
    .toBe('done');
  return id;
}

const activePost = (page: Page) => page.locator('article[aria-current="true"]');

async function editAlt(page: Page, post: Locator, text: string, shot: string) {
  await post.click({ button: 'right', position: { x: 40, y: 200 } });
  await page.getByRole('menuitem', { name: 'Описание и теги' }).click();
  const dialog = page.getByRole('dialog', { name: 'Описание и теги' });
  const field = dialog.getByLabel('Описание для незрячих и поиска');
  await field.fill(text);
  await page.screenshot({ path: join(SHOTS, shot) });
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

test('a feed image and a video carry the tagger’s Russian alt text, and the author’s edit updates it', async ({
  page,
  request,
}) => {
  test.setTimeout(600_000);
  mkdirSync(SHOTS, { recursive: true });
  const author = await registerViaApi(request, uniqueUsername('alt'), 'Автор');
  const photoId = await photoPostViaApi(request, author, readFileSync(join(EVAL, 'chelsea.jpg')), 'Кот');
  const videoId = await videoPostViaApi(request, author, join(EVAL, 'cat_pan.mp4'));
  const photo = await postOf(request, author, photoId);
  const video = await postOf(request, author, videoId);
  for (const p of [photo, video]) {
    expect(p.ai_description).toMatch(CYRILLIC);
    expect(p.ai_description).not.toMatch(/^(Фото|Видео):/);
  }

  await storeSessionBeforeLoad(page, author);
  await page.setViewportSize({ width: 390, height: 844 });

  // The upload modal tells the processing stages with percentages, as the server reports them.
  await page.goto('/home');
  await page.getByRole('button', { name: 'Создать' }).click();
  await page.getByRole('dialog', { name: 'Создать' }).getByRole('button', { name: 'Публикация' }).click();
  const modal = page.getByRole('dialog', { name: 'Новая публикация' });
  await modal.getByLabel('Видео или изображения').setInputFiles(join(EVAL, 'street_late.mp4'));
  await modal.getByRole('button', { name: 'Опубликовать' }).click();
  const processing = modal.getByRole('progressbar', { name: 'ИИ-обработка...' });
  await expect(processing).toBeVisible({ timeout: 120_000 });
  await expect(processing).toHaveAttribute(
    'aria-valuetext',
    /^(В очереди|Обработка|Просмотр|ИИ распознаёт|Сохранение).*\d+%$/,
  );
  await page.screenshot({ path: join(SHOTS, 'upload-processing-390.png') });
  await expect(modal.getByText('Готово! Публикация опубликована')).toBeVisible({ timeout: 240_000 });

  await page.goto(`/media/post/${photoId}`);
  const post = activePost(page);
  await expect(post).toHaveAttribute('data-post-id', String(photoId), { timeout: 60_000 });
  await expect(post.getByRole('img', { name: photo.ai_description, exact: true }).first()).toBeVisible();
  await page.screenshot({ path: join(SHOTS, 'photo-390.png') });

  await editAlt(page, post, 'Рыжая кошка смотрит в камеру', 'edit-390.png');
  await expect(
    post.getByRole('img', { name: 'Рыжая кошка смотрит в камеру', exact: true }).first(),
  ).toBeVisible();
  expect((await postOf(request, author, photoId)).ai_description).toBe('Рыжая кошка смотрит в камеру');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/media/post/${videoId}`);
  await expect(post).toHaveAttribute('data-post-id', String(videoId), { timeout: 60_000 });
  const player = post.locator('video').first();
  await expect(player).toHaveAccessibleName(video.ai_description);
  await page.screenshot({ path: join(SHOTS, 'video-1440.png') });

  await editAlt(page, post, 'Кошка крупным планом, камера медленно приближается', 'edit-1440.png');
  await expect(player).toHaveAccessibleName('Кошка крупным планом, камера медленно приближается');
  await page.screenshot({ path: join(SHOTS, 'video-edited-1440.png') });
});
