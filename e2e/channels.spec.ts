import { apiUrl } from '@kadr/contract/browser';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { auth, registerViaApi, type Session, storeSessionBeforeLoad, uniqueUsername } from './helpers.ts';
import { type Browser, type BrowserContext, expect as baseExpect, type Page, test } from './test.ts';

// Every wait is on a condition; the shared machine can take tens of seconds per step (PITFALLS.md).
const expect = baseExpect.configure({ timeout: 60_000 });

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots/groups';

async function signedInPage(
  browser: Browser,
  session: Session,
  viewport = { width: 390, height: 844 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'ru-RU', viewport });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return { context, page };
}

const message = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Сообщение' }).fill(text);
  await page.getByRole('button', { name: 'Отправить' }).click();
}

test('a channel: mention link in a chat, preview, subscribe, live posts, admins-only input, admin appointed in chat info posts, unsubscribe', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('ca'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('cb'), 'Борис');
  const A = await signedInPage(browser, a, { width: 1440, height: 900 });
  const B = await signedInPage(browser, b);
  const slug = `news_${Date.now().toString(36)}`;

  // A creates the channel from the shell menu.
  await A.page.goto('/messenger');
  await A.page.getByRole('button', { name: 'Меню', exact: true }).click(); // the side rail's menu (ADR 0009)
  await A.page.getByRole('menuitem', { name: 'Создать канал' }).click();
  const dialog = A.page.getByRole('dialog', { name: 'Создать канал' });
  await dialog.getByLabel('Название').fill('Новости');
  await dialog.getByLabel(/Адрес/).fill(slug);
  await A.page.screenshot({ path: `${SHOTS}/create-channel-1440.png` });
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(A.page.getByRole('heading', { name: 'Новости' })).toBeVisible();
  await expect(A.page.getByText('Нет постов')).toBeVisible();

  // A sends B the channel's link in their personal chat; B opens it there: preview, subscribe, the channel opens.
  const link = `${new URL(A.page.url()).origin}/messenger/channel/${slug}`;
  const sent = await request.post(apiUrl(messengerEndpoints.send), {
    headers: auth(a),
    data: { other_user_id: b.user.id, content: `Подписывайся: ${link}`, temp_id: `e2e-${Date.now()}` },
  });
  expect(sent.status()).toBe(200);
  await B.page.goto('/messenger');
  await B.page.getByTestId('chat-row').filter({ hasText: 'Анна' }).click();
  const mention = message(B.page, 'Подписывайся').locator('a[data-mention="channel"]');
  await expect(mention).toHaveAttribute('href', `/messenger/channel/${slug}`);
  await mention.click();
  await expect(B.page).toHaveURL(new RegExp(`/messenger/channel/${slug}$`));
  await expect(B.page.getByRole('heading', { name: 'Новости' })).toBeVisible();
  await B.page.screenshot({ path: `${SHOTS}/channel-preview-390.png` });
  await B.page.getByRole('button', { name: 'Подписаться' }).click();
  await expect(B.page.getByText('Только администраторы могут публиковать в этом канале')).toBeVisible();

  await send(A.page, 'Первый пост');
  await expect(message(B.page, 'Первый пост')).toBeVisible();
  await B.page.screenshot({ path: `${SHOTS}/channel-390.png` });
  await A.page.screenshot({ path: `${SHOTS}/channel-1440.png` });

  // A makes B an administrator with the post right in chat info; B's input opens without a reload.
  await A.page.getByRole('button', { name: 'Информация' }).click();
  const infoA = A.page.getByRole('complementary', { name: 'Информация' });
  await expect(infoA.getByRole('list', { name: 'Подписчики' })).toContainText('Борис');
  await infoA.getByRole('button', { name: 'Добавить администратора' }).click();
  const appoint = A.page.getByRole('dialog', { name: 'Добавить администратора' });
  await appoint.getByRole('button', { name: /Борис/ }).click();
  await expect(appoint.getByRole('checkbox', { name: 'Публикация сообщений' })).toBeChecked();
  await A.page.screenshot({ path: `${SHOTS}/channel-add-admin-1440.png` });
  await appoint.getByRole('button', { name: 'Назначить администратором' }).click();
  // Appointing is an invitation: B accepts it from the bell («Приглашения»).
  await expect(appoint.getByRole('status')).toContainText('станет администратором, когда примет его');
  await appoint.getByRole('button', { name: 'Готово' }).click();
  await expect(appoint).toHaveCount(0);
  await B.page.goto('/home'); // the bell is on the home screen
  await B.page.getByRole('button', { name: /^Уведомления(, \d+)?$/ }).click();
  const invitations = B.page
    .getByRole('dialog', { name: 'Уведомления' })
    .getByRole('region', { name: /Приглашения/ });
  await invitations
    .getByRole('button', { name: /^Принять: Анна предлагает вам стать администратором/ })
    .click();
  await expect(invitations).toHaveCount(0);
  await B.page.keyboard.press('Escape');
  await B.page.goto('/messenger');
  await B.page.getByTestId('chat-row').filter({ hasText: 'Новости' }).click();
  await expect(infoA.getByTestId('channel-admin').filter({ hasText: 'Борис' })).toContainText(
    'администратор',
  );
  await expect(B.page.getByRole('textbox', { name: 'Сообщение' })).toBeVisible();
  await send(B.page, 'Пост Бориса');
  await expect(message(A.page, 'Пост Бориса')).toBeVisible();

  // B unsubscribes: the channel leaves B's list.
  await B.page.getByRole('button', { name: 'Информация' }).click();
  await B.page.getByRole('button', { name: 'Отписаться' }).click();
  await expect(B.page.getByTestId('chat-row').filter({ hasText: 'Новости' })).toHaveCount(0);
  for (const x of [A, B]) await x.context.close();
});
