import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl, DATA_VERSION } from '@kadr/contract/browser';
import sharp from 'sharp';
import {
  dragNavButton,
  photoPostViaApi,
  registerInBrowser,
  registerViaApi,
  uniqueUsername,
} from './helpers.ts';
import { expect, test } from './test.ts';

test('guest registers, moves through the shell, keeps the session on reload and logs out @desktop', async ({
  page,
  request,
}, testInfo) => {
  // Registration, four views, a reload and a logout: over a minute on the shared, loaded machine.
  test.setTimeout(150_000);
  // This flow's own post, so the feed it opens has a known first post whatever ran before (workers: 1).
  const author = await registerViaApi(request, uniqueUsername('shell'), 'Автор Ленты');
  const photo = await sharp({ create: { width: 360, height: 480, channels: 3, background: '#3a5a8c' } })
    .jpeg()
    .toBuffer();
  const postId = await photoPostViaApi(request, author, photo, 'Пост этого теста');
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Вход' })).toBeVisible();

  const username = uniqueUsername('reg');
  await page.getByRole('link', { name: 'Зарегистрироваться' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await registerInBrowser(page, username, 'Новый Участник');

  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: 'Главная', exact: true })).toBeVisible();
  await expect(page.getByText('Главная лента')).toBeVisible();
  const desktop = testInfo.project.name === 'desktop';
  const rail = page.getByRole('navigation', { name: 'Разделы' });
  if (desktop) {
    // From 1024 px the side rail is the navigation and the bottom button is gone (ADR 0009).
    await expect(rail).toBeVisible();
    await expect(page.getByRole('button', { name: /^Навигация/ })).toHaveCount(0);
    await rail.getByRole('link', { name: 'Мессенджер' }).click();
  } else {
    // Below the 50 px threshold nothing changes; past it the button snaps right to the messenger.
    await dragNavButton(page, 30);
    await expect(page).toHaveURL(/\/home$/);
    await dragNavButton(page, 90);
  }
  await expect(page).toHaveURL(/\/messenger$/);
  await expect(page.getByRole('heading', { name: 'Мессенджер' })).toBeVisible();
  // A new account has only its favorites chat (synthesised by the client, spec §4.11).
  await expect(page.getByTestId('chat-row')).toHaveText([/Избранное/]);
  // Beside the list (wide screens only) the chat pane invites to pick a chat.
  if (desktop) {
    await expect(page.getByText('Выберите чат для начала общения')).toBeVisible();
    await rail.getByRole('link', { name: 'Главная' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await rail.getByRole('link', { name: 'Медиа' }).click();
  } else {
    // Keyboard: arrows on the focused button move between the views.
    await page.getByRole('button', { name: /^Навигация/ }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page).toHaveURL(/\/home$/);
    await page.keyboard.press('ArrowLeft');
  }
  await expect(page).toHaveURL(/\/media$/);
  // The newest post (this flow's own; a new account follows nobody, so newest first) is the current one.
  await expect(page.locator('article[aria-current="true"]')).toHaveAttribute('data-post-id', String(postId));
  if (desktop) await rail.getByRole('link', { name: 'Мессенджер' }).click();
  else await dragNavButton(page, 2 * 76);
  await expect(page).toHaveURL(/\/messenger$/);

  await page.reload();
  await expect(page).toHaveURL(/\/messenger$/);
  await expect(page.getByRole('heading', { name: 'Мессенджер' })).toBeVisible();

  const token = await page.evaluate(() => localStorage.getItem('auth:accessToken'));
  expect(token).toBeTruthy();
  const before = await page.request.get(apiUrl(authEndpoints.me), {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(before.status()).toBe(200);

  // The phone's floating menu button, or the rail's 'Меню' on desktop.
  const menuButton = desktop
    ? rail.getByRole('button', { name: 'Меню', exact: true })
    : page.getByRole('button', { name: 'Открыть меню', exact: true });
  await menuButton.click();
  const menu = page.getByRole('menu', { name: 'Меню' });
  await expect(menu.getByRole('menuitem', { name: 'Профиль' })).toBeFocused();
  await expect(menu.getByRole('menuitem', { name: 'Настройки' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Выйти' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('auth:accessToken'))).toBeNull();

  const after = await page.request.get(apiUrl(authEndpoints.me), {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(after.status()).toBe(401);

  await page.goto('/home');
  await expect(page).toHaveURL(/\/login$/);
});

test('registration shows client checks and the server field error for a taken username', async ({ page }) => {
  const taken = uniqueUsername('taken');
  await registerViaApi(page.request, taken);

  await page.goto('/register');
  const usernameInput = page.getByLabel('Имя пользователя');
  await usernameInput.fill('Bad Name');
  await page.getByLabel('Имя', { exact: true }).fill('Дубликат');
  await page.getByLabel('Пароль').fill('short');
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await expect(page.getByText('Имя пользователя: от 3 до 32 символов, только a–z, 0–9 и _')).toBeVisible();
  await expect(page.getByText('Пароль должен быть не короче 8 символов')).toBeVisible();

  await usernameInput.fill(taken);
  await page.getByLabel('Пароль').fill('long-enough-password');
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await expect(page.getByText('Это имя пользователя уже занято')).toBeVisible();
  await expect(usernameInput).toHaveAttribute('aria-invalid', 'true');
  await expect(usernameInput).toHaveAccessibleDescription(/Это имя пользователя уже занято/);
  await expect(page).toHaveURL(/\/register$/);
});

test('sign-in with a wrong password shows the server message', async ({ page }) => {
  const username = uniqueUsername('login');
  await registerViaApi(page.request, username);
  await page.goto('/login');
  await page.getByLabel('Имя пользователя').fill(username);
  await page.getByLabel('Пароль').fill('wrong-password');
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page.getByText('Неверное имя пользователя или пароль')).toBeVisible();

  await page.getByLabel('Пароль').fill('secret-password-1');
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test('the loading screen adds the slow hint when /auth/me takes more than 5 s', async ({ page }) => {
  const session = await registerViaApi(page.request, uniqueUsername('slow'));
  // A stored user starts the pages at once while /auth/me confirms it; the loading screen is for a stored
  // token without a readable user (an older version's storage), which waits for /auth/me.
  await page.addInitScript(
    ({ token, version }) => {
      localStorage.setItem('dataVersion', version);
      localStorage.setItem('auth:accessToken', token);
    },
    { token: session.access_token, version: DATA_VERSION },
  );
  // The page's clock is ours: the 5 s threshold is crossed by moving time, not by waiting for it.
  const start = new Date('2026-01-05T09:00:00Z');
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 10_000));
  let answerMe: () => void = () => {};
  const meHeld = new Promise<void>((resolve) => (answerMe = resolve));
  await page.route(`**${apiUrl(authEndpoints.me)}`, async (route) => {
    await meHeld;
    await route.continue();
  });

  const hint = page.getByText('Загрузка занимает больше времени, чем обычно...');
  await page.goto('/home');
  await expect(page.getByText('Загрузка...')).toBeVisible();
  await page.clock.runFor(4_900);
  await expect(hint).toBeHidden();
  await page.clock.runFor(200);
  await expect(hint).toBeVisible();
  answerMe();
  await page.clock.resume();
  await expect(page.getByRole('heading', { name: 'Главная', exact: true })).toBeVisible({ timeout: 10_000 });
});
