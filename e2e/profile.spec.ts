import { apiUrl } from '@kadr/contract/browser';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import {
  MEDIA_PROCESSING_MS,
  registerViaApi,
  storeSessionBeforeLoad,
  uniqueUsername,
  withMediaProcessing,
} from './helpers.ts';
import { expect, test } from './test.ts';

// A 1×1 PNG.
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

test('profile page: follow with counters, own profile links to settings, settings save', async ({ page }) => {
  test.setTimeout(withMediaProcessing(60_000));
  const author = await registerViaApi(page.request, uniqueUsername('author'), 'Автор Канала');
  const reader = await registerViaApi(page.request, uniqueUsername('reader'), 'Читатель');
  await storeSessionBeforeLoad(page, reader);

  await page.goto(`/${author.user.username}`);
  await expect(page.getByRole('heading', { name: 'Автор Канала' })).toBeVisible();
  await expect(page.getByText(`@${author.user.username}`)).toBeVisible();
  const followers = page.getByTestId('stat-followers');
  await expect(followers).toContainText('0');
  await expect(followers).toContainText('подписчиков');

  await page.getByRole('button', { name: 'Подписаться' }).click();
  await expect(page.getByRole('button', { name: 'Отписаться' })).toBeVisible();
  await expect(followers).toContainText('1');
  await expect(followers).toContainText('подписчик');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Отписаться' })).toBeVisible();

  await page.goto('/nobody_here_at_all');
  await expect(page.getByText('Пользователь не найден')).toBeVisible();

  await page.goto(`/${reader.user.username}`);
  await page.getByRole('link', { name: 'Редактировать профиль' }).click();
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await page.getByLabel('Имя').fill('Читатель Новый');
  await page.getByLabel('О себе').fill('Люблю кино');
  await page.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Изменения сохранены')).toBeVisible();
  await page.goto(`/${reader.user.username}`);
  await expect(page.getByRole('heading', { name: 'Читатель Новый' })).toBeVisible();
  await expect(page.getByText('Люблю кино')).toBeVisible();
  await expect(page.getByTestId('stat-following')).toContainText('1');

  await page.goto('/settings/profile');
  await page
    .getByLabel('Загрузить фото')
    .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: tinyPng });
  // The picture is cut in the image process, at the lowest priority: long on a busy machine.
  await expect(page.getByText('Фото профиля обновлено')).toBeVisible({ timeout: MEDIA_PROCESSING_MS });
  await page.goto(`/${reader.user.username}`);
  await expect(page.getByRole('img', { name: 'Аватар: Читатель Новый' })).toHaveAttribute('src', /\/files\//);
});

test('presence: a follower sees онлайн on a profile while its owner has the app open', async ({
  browser,
  page,
}) => {
  const owner = await registerViaApi(page.request, uniqueUsername('owner'), 'Владелец');
  const visitor = await registerViaApi(page.request, uniqueUsername('visitor'), 'Гость');
  // Presence is told only to the owner's audience (followers and chat peers), never to strangers.
  const follow = await page.request.post(apiUrl(profileEndpoints.follow, { username: owner.user.username }), {
    headers: { authorization: `Bearer ${visitor.access_token}` },
  });
  expect(follow.ok()).toBe(true);

  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await storeSessionBeforeLoad(ownerPage, owner);
  const socketOpened = ownerPage.waitForEvent('websocket', (ws) => ws.url().includes('/socket.io/'));
  await ownerPage.goto('/home');
  await socketOpened;
  await expect(ownerPage.getByRole('heading', { name: 'Главная', exact: true })).toBeVisible();

  await storeSessionBeforeLoad(page, visitor);
  await page.goto(`/${owner.user.username}`);
  await expect(page.getByRole('heading', { name: 'Владелец' })).toBeVisible();
  await expect(page.getByText('онлайн', { exact: true })).toBeVisible();
  await ownerContext.close();
});
