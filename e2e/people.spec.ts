import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiUrl } from '@kadr/contract/browser';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { registerViaApi, type Session, storeSessionBeforeLoad, uniqueUsername } from './helpers.ts';
import { type APIRequestContext, expect, test } from './test.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = join(root, 'test-results', 'people');
mkdirSync(SHOTS, { recursive: true });

async function follow(request: APIRequestContext, who: Session, whom: Session) {
  const res = await request.post(apiUrl(profileEndpoints.follow, { username: whom.user.username }), {
    headers: { authorization: `Bearer ${who.access_token}` },
  });
  expect(res.status()).toBe(200);
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
]) {
  test(`follower and following lists open from the counts (${viewport.width})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const star = await registerViaApi(page.request, uniqueUsername('star'), 'Звезда Экрана');
    const viewer = await registerViaApi(page.request, uniqueUsername('viewer'), 'Зритель');
    const fanA = await registerViaApi(page.request, uniqueUsername('fana'), 'Анна Поклонница');
    const fanB = await registerViaApi(page.request, uniqueUsername('fanb'), 'Борис Поклонник');
    for (const fan of [fanA, fanB]) await follow(page.request, fan, star);
    await follow(page.request, star, fanA);
    await storeSessionBeforeLoad(page, viewer);

    await page.goto(`/${star.user.username}`);
    await expect(page.getByRole('heading', { name: 'Звезда Экрана' })).toBeVisible();
    const followers = page.getByRole('button', { name: /2 подписчика.*открыть список/ });
    await expect(followers).toBeVisible();
    // Keyboard: the count is a real button.
    await followers.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Подписчики' });
    await expect(dialog.getByRole('link', { name: /Борис Поклонник/ })).toBeVisible();
    await expect(dialog.getByText(`@${fanA.user.username}`)).toBeVisible();
    await page.screenshot({ path: join(SHOTS, `followers-${viewport.width}.png`) });

    await dialog.getByRole('button', { name: 'Подписаться на Анна Поклонница' }).click();
    await expect(dialog.getByRole('button', { name: 'Отписаться от Анна Поклонница' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(followers).toBeFocused();

    await page.getByRole('button', { name: /1 подписка.*открыть список/ }).click();
    const following = page.getByRole('dialog', { name: 'Подписки' });
    await expect(following.getByRole('button', { name: 'Отписаться от Анна Поклонница' })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, `following-${viewport.width}.png`) });
    await following.getByRole('link', { name: /Анна Поклонница/ }).click();
    await expect(page).toHaveURL(new RegExp(`/${fanA.user.username}$`));
    await expect(page.getByRole('heading', { name: 'Анна Поклонница' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Отписаться' })).toBeVisible();
  });
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
]) {
  test(`a private account: a request, «Это закрытый аккаунт», accepted in the notifications panel (${viewport.width})`, async ({
    browser,
    page,
  }) => {
    const owner = await registerViaApi(page.request, uniqueUsername('priv'), 'Тайная Хозяйка');
    const asker = await registerViaApi(page.request, uniqueUsername('ask'), 'Просящий Гость');
    await page.setViewportSize(viewport);
    await storeSessionBeforeLoad(page, owner);

    // The owner closes the account in the privacy settings.
    await page.goto('/settings#privacy');
    const toggle = page.getByRole('switch', { name: 'Закрытый аккаунт' });
    await expect(toggle).not.toBeChecked();
    // A controlled switch: it turns when the settings answer comes back.
    await toggle.click();
    await expect(toggle).toBeChecked();
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Закрытый аккаунт' })).toBeChecked();

    // A stranger sees the header and «Это закрытый аккаунт», no posts; the counts open nothing.
    const context = await browser.newContext({ locale: 'ru-RU', viewport });
    const other = await context.newPage();
    await storeSessionBeforeLoad(other, asker);
    await other.goto(`/${owner.user.username}`);
    await expect(other.getByRole('heading', { name: 'Тайная Хозяйка' })).toBeVisible();
    await expect(other.getByRole('heading', { name: 'Это закрытый аккаунт' })).toBeVisible();
    await expect(other.getByRole('button', { name: /открыть список/ })).toHaveCount(0);
    await other.getByRole('button', { name: 'Подписаться' }).click();
    await expect(other.getByRole('button', { name: 'Отменить запрос на подписку' })).toHaveText(
      'Запрос отправлен',
    );
    await other.screenshot({ path: join(SHOTS, `private-profile-${viewport.width}.png`) });

    // The owner answers in the notifications panel.
    await page.goto('/home');
    const bell = page.getByRole('button', { name: /^Уведомления(, \d+\+?)?$/ });
    await expect(bell).toBeVisible({ timeout: 30_000 });
    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Уведомления' });
    await expect(panel).toBeVisible({ timeout: 30_000 });
    const requests = panel.getByRole('region', { name: /^Заявки на подписку/ });
    await expect(requests.getByText('Просящий Гость')).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: join(SHOTS, `follow-request-${viewport.width}.png`) });
    await requests.getByRole('button', { name: /^Принять: Просящий Гость/ }).click();
    await expect(requests).toHaveCount(0);

    // Now a follower: the notice is gone and the lists open.
    await other.reload();
    await expect(other.getByRole('button', { name: 'Отписаться' })).toBeVisible();
    await expect(other.getByRole('heading', { name: 'Это закрытый аккаунт' })).toHaveCount(0);
    await expect(other.getByRole('button', { name: /1 подписчик.*открыть список/ })).toBeVisible();
    await context.close();
  });
}
