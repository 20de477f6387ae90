import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiUrl } from '@kadr/contract/browser';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { auth, registerViaApi, type Session, storeSessionBeforeLoad, uniqueUsername } from './helpers.ts';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect as baseExpect,
  type Page,
  test,
} from './test.ts';

// Every wait is on a condition; the shared machine can take tens of seconds to load a page.
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

async function groupId(request: APIRequestContext, s: Session, name: string): Promise<number> {
  const res = await request.get(apiUrl(groupsEndpoints.list), { headers: auth(s) });
  const groups = (await res.json()).groups as { id: number; name: string }[];
  const found = groups.find((g) => g.name === name);
  if (!found) throw new Error(`no group ${name}`);
  return found.id;
}

test('three users: create with a member, join by invite link, live messages, typing, unread, replies, admins remove', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('ga'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('gb'), 'Борис');
  const c = await registerViaApi(request, uniqueUsername('gc'), 'Вера');
  const A = await signedInPage(browser, a, { width: 1440, height: 900 });
  const B = await signedInPage(browser, b);
  const C = await signedInPage(browser, c);

  // A creates the group from the shell menu, picking B by search.
  await A.page.goto('/messenger');
  await A.page.getByRole('button', { name: 'Меню', exact: true }).click(); // the side rail's menu (ADR 0009)
  await A.page.getByRole('menuitem', { name: 'Создать группу' }).click();
  const dialog = A.page.getByRole('dialog', { name: 'Создать группу' });
  await dialog.getByLabel('Название').fill('Три друга');
  await dialog.getByLabel('Найти людей').fill(b.user.username);
  await dialog.getByRole('button', { name: /Борис/ }).click();
  await A.page.screenshot({ path: `${SHOTS}/create-group-1440.png` });
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(A.page.getByRole('heading', { name: 'Три друга' })).toBeVisible();
  await expect(A.page.getByText('2 участника')).toBeVisible();
  await expect(A.page.getByText('Нет сообщений')).toBeVisible();
  const id = await groupId(request, a, 'Три друга');

  // B sees it in the list; C opens the invite link, sees the preview and joins.
  await B.page.goto('/messenger');
  const rowAtB = B.page.getByTestId('chat-row').filter({ hasText: 'Три друга' });
  await expect(rowAtB).toBeVisible();
  const token = (await (await request.get(apiUrl(groupsEndpoints.get, { id }), { headers: auth(a) })).json())
    .inviteToken;
  await C.page.goto(`/messenger/invite/${token}`);
  await expect(C.page.getByText('Вы не являетесь участником этой группы')).toBeVisible();
  await C.page.screenshot({ path: `${SHOTS}/group-preview-390.png` });
  await C.page.getByRole('button', { name: 'Вступить' }).click();
  // The preview shows the name too: the group chat is open once its message box is.
  await expect(C.page.getByRole('textbox', { name: 'Сообщение' })).toBeVisible({ timeout: 30_000 });
  await expect(C.page.getByRole('heading', { name: 'Три друга' })).toBeVisible();
  await expect(C.page.getByText('3 участника')).toBeVisible();

  // Messages from each reach the other two live; B's list counts them unread (after the line C's joining
  // left: «Вера присоединился(-ась) к группе»).
  await expect(rowAtB).toContainText('Вера присоединился(-ась) к группе');
  await send(A.page, 'Привет всем от Анны');
  await expect(message(C.page, 'Привет всем от Анны')).toBeVisible();
  await expect(rowAtB).toContainText('Привет всем от Анны');
  await expect(rowAtB.getByTestId('unread-badge')).toHaveText('2');
  await send(C.page, 'Вера здесь');
  await expect(message(A.page, 'Вера здесь')).toBeVisible();
  await expect(rowAtB.getByTestId('unread-badge')).toHaveText('3');
  await rowAtB.click();
  await expect(message(B.page, 'Вера здесь')).toBeVisible();
  await send(B.page, 'Борис тоже');
  await expect(message(A.page, 'Борис тоже')).toBeVisible();
  await expect(message(C.page, 'Борис тоже')).toBeVisible();

  // Typing shows "<name> печатает..." to the others.
  await C.page.getByRole('textbox', { name: 'Сообщение' }).pressSequentially('пишу', { delay: 50 });
  await expect(A.page.getByText('Вера печатает...')).toBeVisible();
  await C.page.getByRole('textbox', { name: 'Сообщение' }).fill('');

  // C replies to A's message; the quote jumps to the original.
  await message(C.page, 'Привет всем от Анны').locator('div').first().click({ button: 'right' });
  await C.page.getByRole('menuitem', { name: 'Ответить' }).click();
  await send(C.page, 'Отвечаю Анне');
  const reply = message(A.page, 'Отвечаю Анне');
  await expect(reply.getByTestId('reply-quote')).toContainText('Привет всем от Анны');
  await reply.getByTestId('reply-quote').click();
  // The reply quotes the original's text too: the original is the message that is not the reply.
  await expect(
    message(A.page, 'Привет всем от Анны').filter({ hasNotText: 'Отвечаю Анне' }),
  ).toBeInViewport();
  await A.page.screenshot({ path: `${SHOTS}/group-chat-1440.png` });
  await C.page.screenshot({ path: `${SHOTS}/group-chat-390.png` });

  // A makes B an admin in chat info; B removes C.
  await A.page.getByRole('button', { name: 'Информация' }).click();
  const infoA = A.page.getByRole('complementary', { name: 'Информация' });
  await expect(infoA.getByTestId('invite-link')).toContainText('/messenger/invite/');
  await infoA
    .getByTestId('group-member')
    .filter({ hasText: 'Борис' })
    .getByRole('button', { name: 'Сделать администратором' })
    .click();
  // The role label itself (the row's "Сделать администратором" button also contains the word).
  const borisRow = infoA.getByTestId('group-member').filter({ hasText: 'Борис' });
  await expect(borisRow.getByText('администратор', { exact: true })).toBeVisible();
  await expect(borisRow.getByRole('button', { name: 'Сделать администратором' })).toHaveCount(0);
  await A.page.screenshot({ path: `${SHOTS}/group-info-1440.png` });
  await B.page.getByRole('button', { name: 'Информация' }).click();
  const infoB = B.page.getByRole('complementary', { name: 'Информация' });
  await infoB.getByRole('button', { name: 'Удалить из группы: Вера' }).click();

  // C loses the group from the list and is refused its history.
  await expect(C.page.getByTestId('chat-row').filter({ hasText: 'Три друга' })).toHaveCount(0);
  const history = await request.get(apiUrl(groupsEndpoints.messages, { id }), { headers: auth(c) });
  expect(history.status()).toBe(403);
  for (const x of [A, B, C]) await x.context.close();
});

const PHOTO = join(
  dirname(fileURLToPath(import.meta.url)),
  '../apps/server/test/fixtures/eval-photos/chelsea.jpg',
);

test('group photo: an admin picks, crops and saves it, a member sees it live; chat search finds the public group and a channel', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('pa'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('pb'), 'Борис');
  const c = await registerViaApi(request, uniqueUsername('pc'), 'Вера');
  const tag = Math.random().toString(36).slice(2, 7);
  const created = await request.post(apiUrl(groupsEndpoints.create), {
    headers: auth(a),
    data: { name: `Фотоклуб ${tag}`, is_public: true, slug: `photo_${tag}`, member_ids: [b.user.id] },
  });
  expect(created.status()).toBe(200);
  const channel = await request.post(apiUrl(channelsEndpoints.create), {
    headers: auth(a),
    data: { name: `Фотоновости ${tag}`, slug: `photonews_${tag}` },
  });
  expect(channel.status()).toBe(200);
  const A = await signedInPage(browser, a, { width: 1440, height: 900 });
  const B = await signedInPage(browser, b);

  // B has the group open; a member sees no photo picker.
  await B.page.goto('/messenger');
  await B.page
    .getByTestId('chat-row')
    .filter({ hasText: `Фотоклуб ${tag}` })
    .click();
  await expect(B.page.getByRole('textbox', { name: 'Сообщение' })).toBeVisible();
  await B.page.getByRole('button', { name: 'Информация' }).click();
  const infoB = B.page.getByRole('complementary', { name: 'Информация' });
  await expect(infoB.getByRole('region', { name: 'Фото группы' })).toBeVisible();
  await expect(infoB.getByText('Выбрать фото')).toHaveCount(0);

  // A picks a photo, moves the zoom, sees the round preview and saves.
  await A.page.goto('/messenger');
  await A.page
    .getByTestId('chat-row')
    .filter({ hasText: `Фотоклуб ${tag}` })
    .click();
  await A.page.getByRole('button', { name: 'Информация' }).click();
  const infoA = A.page.getByRole('complementary', { name: 'Информация' });
  await infoA.getByTestId('group-avatar-input').setInputFiles(PHOTO);
  const crop = A.page.getByRole('dialog', { name: 'Фото группы: выберите область' });
  await expect(crop.getByTestId('avatar-preview')).toBeVisible();
  await crop.getByLabel('Масштаб').fill('2');
  await A.page.screenshot({ path: `${SHOTS}/group-avatar-crop-1440.png` });
  await crop.getByRole('button', { name: 'Сохранить' }).click();
  await expect(crop).toHaveCount(0);
  const saved = infoA.getByRole('img', { name: 'Фото группы' });
  await expect(saved).toHaveAttribute('src', /\/avatars\//);
  await expect(infoA.getByText('Изменить фото')).toBeVisible();

  // B's header, chat row and info show the new photo without a reload.
  const src = (await saved.getAttribute('src')) ?? '';
  await expect(infoB.getByRole('img', { name: 'Фото группы' })).toHaveAttribute('src', src);
  await expect(B.page.locator(`header img[src="${src}"]`).first()).toBeVisible();
  const photo = await request.get(src);
  expect(photo.status()).toBe(200);
  expect(photo.headers()['content-type']).toBe('image/webp');
  await B.page.screenshot({ path: `${SHOTS}/group-avatar-member-390.png` });

  // C, in neither, finds both from the chat search and joins the group from its preview.
  const C = await signedInPage(browser, c);
  await C.page.goto('/messenger');
  await C.page.getByRole('searchbox', { name: 'Поиск чатов...' }).fill(`фото`);
  const found = C.page.getByRole('region', { name: 'Публичные группы и каналы' });
  await expect(found.getByRole('button', { name: `Открыть: Фотоклуб ${tag}` })).toBeVisible();
  await expect(found.getByRole('button', { name: `Открыть: Фотоновости ${tag}` })).toBeVisible();
  await C.page.screenshot({ path: `${SHOTS}/public-search-390.png` });
  await found.getByRole('button', { name: `Открыть: Фотоклуб ${tag}` }).click();
  await expect(C.page.getByText('Вы не являетесь участником этой группы')).toBeVisible();
  await C.page.getByRole('button', { name: 'Вступить' }).click();
  await expect(C.page.getByRole('textbox', { name: 'Сообщение' })).toBeVisible();
  await expect(C.page.getByText('3 участника')).toBeVisible();

  // The channel hit opens its preview with subscribe.
  await C.page.goto('/messenger');
  await C.page.getByRole('searchbox', { name: 'Поиск чатов...' }).fill(`@photonews_${tag}`);
  await C.page.getByRole('button', { name: `Открыть: Фотоновости ${tag}` }).click();
  await expect(C.page.getByTestId('channel-preview')).toContainText(`@photonews_${tag}`);
  await C.page.getByRole('button', { name: 'Подписаться' }).click();
  await expect(C.page.getByText('Только администраторы могут публиковать в этом канале')).toBeVisible();
  for (const x of [A, B, C]) await x.context.close();
});
