import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl } from '@kadr/contract/browser';
import { settingsEndpoints } from '@kadr/contract/settings/endpoints';
import { PASSWORD, registerViaApi, storeSessionBeforeLoad, uniqueUsername } from './helpers.ts';
import { expect, test } from './test.ts';

test('after guesses at an account, its owner signs in from a new browser: the login challenge is solved there', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await registerViaApi(request, uniqueUsername('guess'), 'Владелец');
  for (let i = 0; i < 6; i += 1) {
    const wrong = await request.post(apiUrl(authEndpoints.login), {
      data: { username: owner.user.username, password: `wrong guess ${i}` },
    });
    expect([401, 403]).toContain(wrong.status());
  }
  await page.goto('/login');
  await page.getByLabel('Имя пользователя').fill(owner.user.username);
  await page.getByLabel('Пароль').fill(PASSWORD);
  const challenged = page.waitForResponse(
    (r) => r.url().endsWith(apiUrl(authEndpoints.login)) && r.status() === 403,
  );
  const signedIn = page.waitForResponse(
    (r) => r.url().endsWith(apiUrl(authEndpoints.login)) && r.status() === 200,
    { timeout: 90_000 },
  );
  await page.getByRole('button', { name: 'Войти' }).click();
  expect((await (await challenged).json()).code).toBe('login_challenge_required');
  const session = await (await signedIn).json();
  await expect(page).toHaveURL(/\/home$/, { timeout: 30_000 });
  // This browser keeps its device token for the account: the next sign-in here skips the challenge.
  const kept = await page.evaluate(() => localStorage.getItem('auth:devices'));
  expect(JSON.parse(kept ?? '{}')[owner.user.username]).toBe(session.device_token);
});

test('the register form shows how strong the password looks and says which rule it breaks', async ({
  page,
}, info) => {
  await page.goto('/register');
  await page.getByLabel('Имя пользователя').fill('anna_k');
  await page.getByLabel('Имя', { exact: true }).fill('Анна');
  const password = page.getByLabel('Пароль');
  await password.fill('anna_k-2024');
  await expect(page.getByRole('status')).toHaveText('Пароль не должен содержать имя пользователя');
  await password.fill('qwertyui');
  await expect(page.getByRole('status')).toHaveText(/^Надёжность пароля: слабый/);
  await password.fill('лодка плывёт к маяку');
  await expect(page.getByRole('status')).toHaveText('Надёжность пароля: надёжный');
  await page.screenshot({ path: info.outputPath('register-strength.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: info.outputPath('register-strength-1440.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await password.fill('aaaaaaaa');
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await expect(password).toHaveAccessibleDescription(
    'Пароль не может состоять из одного повторяющегося символа',
  );
  await page.screenshot({ path: info.outputPath('register-refused.png') });
});

test('the sessions list says which device has push on', async ({ page, request }, info) => {
  const a = await registerViaApi(request, uniqueUsername('push'), 'Пуш Владелец');
  await request.post(apiUrl(authEndpoints.login), {
    data: { username: a.user.username, password: PASSWORD },
    headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/131.0 Mobile Safari/537.36' },
  });
  await storeSessionBeforeLoad(page, a);
  // A real subscription needs a push service on the internet (the e2e server allows only public https
  // endpoints): the list's answer is taken from the server and the other session marked as subscribed.
  await page.route(`**${apiUrl(settingsEndpoints.sessions)}`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { sessions: { is_current: boolean; push: boolean }[] };
    for (const s of body.sessions) s.push = !s.is_current;
    await route.fulfill({ response, json: body });
  });
  await page.goto('/settings');
  const list = page.getByRole('list', { name: 'Активные сеансы' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByText('Уведомления включены на этом устройстве')).toHaveCount(1);
  await list.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('sessions-push.png') });
  await page.setViewportSize({ width: 1440, height: 900 });
  await list.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('sessions-push-1440.png') });
});
