import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl } from '@kadr/contract/browser';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { livestreamsEndpoints } from '@kadr/contract/livestreams/endpoints';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import {
  auth,
  PASSWORD,
  registerViaApi,
  SCREEN_SIZES,
  type Session,
  storeSessionBeforeLoad,
  uniqueUsername,
} from './helpers.ts';
import { type APIRequestContext, type Browser, expect, type Page, test } from './test.ts';

/**
 * Where a report starts outside posts and profiles — a chat message's menu, a group's info — and a
 * moderator's «Завершить эфир (модератор)» on a live stream's screen, at phone and desktop sizes.
 */
const shots = path.join(import.meta.dirname, '..', 'screenshots', 'moderation');
/** Named by MODERATOR_USERNAMES in playwright.config.ts. */
const MODERATOR = 'e2e_moderator';
const SIZES = SCREEN_SIZES;

async function moderatorSession(request: APIRequestContext): Promise<Session> {
  const registered = await request.post(apiUrl(authEndpoints.register), {
    data: { username: MODERATOR, name: 'Модератор', password: PASSWORD },
  });
  if (registered.status() === 201) return (await registered.json()) as Session;
  const login = await request.post(apiUrl(authEndpoints.login), {
    data: { username: MODERATOR, password: PASSWORD },
  });
  expect(login.status()).toBe(200);
  return (await login.json()) as Session;
}

async function pageFor(browser: Browser, session: Session, size: (typeof SIZES)[number]): Promise<Page> {
  const context = await browser.newContext({
    locale: 'ru-RU',
    viewport: { width: size.width, height: size.height },
  });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return page;
}

async function sendReport(page: Page) {
  const sheet = page.getByRole('dialog');
  await sheet.getByRole('radio', { name: 'Спам' }).check();
  await sheet.getByRole('button', { name: 'Отправить жалобу' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Жалоба отправлена' })).toBeVisible();
}

test('moderation entries: report a message and a group; a moderator ends a live stream from its screen @desktop-only', async ({
  browser,
  request,
}) => {
  test.setTimeout(480_000);
  mkdirSync(shots, { recursive: true });
  const moderator = await moderatorSession(request);

  for (const size of SIZES) {
    const anna = await registerViaApi(request, uniqueUsername('ea'), 'Анна');
    const boris = await registerViaApi(request, uniqueUsername('eb'), 'Борис');
    const text = `Купите слона ${size.name}`;
    const sent = await request.post(apiUrl(messengerEndpoints.send), {
      headers: auth(boris),
      data: { other_user_id: anna.user.id, content: text, temp_id: `e2e-${Date.now()}` },
    });
    expect(sent.status(), await sent.text()).toBe(200);

    // Anna reports Boris's message from its menu; it leaves her chat.
    const page = await pageFor(browser, anna, size);
    await page.goto(`/messenger/${boris.user.username}`);
    const line = page.getByTestId('message').filter({ hasText: text });
    await line.locator('div').first().click({ button: 'right' });
    await expect(page.getByRole('menuitem', { name: 'Пожаловаться' })).toBeVisible();
    await page.screenshot({ path: path.join(shots, `message-menu-${size.name}.png`) });
    await page.getByRole('menuitem', { name: 'Пожаловаться' }).click();
    await sendReport(page);
    await expect(line).toHaveCount(0);

    // Anna, a member of Boris's group, reports the group from its info panel.
    const group = await request.post(apiUrl(groupsEndpoints.create), {
      headers: auth(boris),
      data: { name: `Слоны ${size.name}`, member_ids: [anna.user.id] },
    });
    expect(group.status(), await group.text()).toBe(200);
    await page.goto('/messenger');
    await page
      .getByTestId('chat-row')
      .filter({ hasText: `Слоны ${size.name}` })
      .click();
    await page.getByRole('button', { name: 'Информация' }).click();
    const info = page.getByRole('complementary', { name: 'Информация' });
    const reportGroup = info.getByRole('button', { name: 'Пожаловаться на группу' });
    await reportGroup.scrollIntoViewIfNeeded();
    await expect(reportGroup).toBeVisible();
    await page.screenshot({ path: path.join(shots, `group-info-${size.name}.png`) });
    await reportGroup.click();
    await sendReport(page);
    await page.context().close();

    // The moderator watches Boris's stream and ends it from the stream's own screen.
    const created = await request.post(apiUrl(livestreamsEndpoints.create), {
      headers: auth(boris),
      data: { title: `Эфир ${size.name}` },
    });
    expect(created.status(), await created.text()).toBe(201);
    const streamId = ((await created.json()) as { id: number }).id;
    const modPage = await pageFor(browser, moderator, size);
    await modPage.goto(`/live/${streamId}`);
    const end = modPage.getByRole('button', { name: 'Завершить эфир (модератор)' });
    await expect(end).toBeVisible({ timeout: 60_000 });
    const header = modPage.getByTestId('live-header');
    const width = await header.evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(size.width);
    const inside = await end.evaluate(
      (el) => el.getBoundingClientRect().right <= window.innerWidth && el.getBoundingClientRect().left >= 0,
    );
    expect(inside).toBe(true);
    await modPage.screenshot({ path: path.join(shots, `live-moderator-${size.name}.png`) });
    modPage.once('dialog', (dialog) => void dialog.accept());
    await end.click();
    await expect
      .poll(
        async () =>
          (
            (await (
              await request.get(apiUrl(livestreamsEndpoints.get, { id: streamId }), { headers: auth(anna) })
            ).json()) as { status: string }
          ).status,
        { timeout: 60_000 },
      )
      .toBe('ended');
    await modPage.context().close();
  }
});
