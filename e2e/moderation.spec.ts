import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl } from '@kadr/contract/browser';
import { livestreamsEndpoints } from '@kadr/contract/livestreams/endpoints';
import { mediaEndpoints } from '@kadr/contract/media/endpoints';
import { moderationEndpoints } from '@kadr/contract/moderation/endpoints';
import {
  auth,
  configuredModerator,
  MODERATOR,
  PASSWORD,
  photoPostViaApi,
  registerViaApi,
  type Session,
  socketConnected,
  storeSessionBeforeLoad,
  uniqueUsername,
} from './helpers.ts';
import { mediaFixtures } from './media-fixtures.ts';
import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from './test.ts';

const fixtures = mediaFixtures();
const shots = path.join(import.meta.dirname, '..', 'screenshots', 'moderation');

async function pageFor(browser: Browser, session: Session, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ locale: 'ru-RU', viewport });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return page;
}

async function report(page: Page, reason: string, comment?: string) {
  const sheet = page.getByRole('dialog');
  await sheet.getByRole('radio', { name: reason }).check();
  if (comment) await sheet.getByLabel('Комментарий (необязательно)').fill(comment);
  await sheet.getByRole('button', { name: 'Отправить жалобу' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Жалоба отправлена' })).toBeVisible();
}

async function startStream(request: APIRequestContext, host: Session, title: string): Promise<number> {
  const res = await request.post(apiUrl(livestreamsEndpoints.create), {
    headers: auth(host),
    data: { title },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

function chatLine(page: Page, text: string): Locator {
  return page.getByTestId('live-chat').getByRole('listitem').filter({ hasText: text });
}

async function sendChatLine(page: Page, text: string) {
  const input = page.getByRole('textbox', { name: 'Сообщение' });
  await input.fill(text);
  await input.press('Enter');
}

test('moderation: a reader reports a post and a live chat line; the moderator removes the post and suspends the chat line’s author; the reader hears back; the audit log lists both @desktop', async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(600_000);
  mkdirSync(shots, { recursive: true });
  const desktop = testInfo.project.name === 'desktop';
  const viewport = desktop ? { width: 1440, height: 900 } : { width: 390, height: 844 };
  const size = desktop ? 'desktop' : 'phone';

  const moderator = await configuredModerator(request);
  const author = await registerViaApi(request, uniqueUsername('mauth'), 'Автор');
  const host = await registerViaApi(request, uniqueUsername('mhost'), 'Ведущая');
  const troll = await registerViaApi(request, uniqueUsername('mtroll'), 'Тролль');
  const reader = await registerViaApi(request, uniqueUsername('mread'), 'Читатель');
  const jpeg = await fixtures.image('moderation.jpg', 20, 'jpg');
  const caption = `Спам ${author.user.username}`;
  const postId = await photoPostViaApi(request, author, readFileSync(jpeg), caption);
  const streamTitle = `Эфир ${host.user.username.slice(-6)}`;
  const streamId = await startStream(request, host, streamTitle);
  const line = `Грубая строчка ${troll.user.username.slice(-6)}`;

  // The reader reports the post from the page menu.
  const readerPage = await pageFor(browser, reader, viewport);
  const readerSocket = socketConnected(readerPage);
  await readerPage.goto(`/media/${postId}`);
  await readerSocket;
  // Phone: «Открыть меню» in the bottom bar; desktop: «Меню» in the side rail.
  await readerPage
    .getByRole('button', { name: /^(Открыть меню|Меню)$/ })
    .first()
    .click();
  await readerPage.getByRole('menuitem', { name: 'Пожаловаться на публикацию' }).click();
  await report(readerPage, 'Спам');

  // On the stream, the troll writes a line; the reader reports it from the line's menu and it leaves
  // the reader's chat at once.
  const trollPage = await pageFor(browser, troll, viewport);
  await trollPage.goto(`/live/${streamId}`);
  await readerPage.goto(`/live/${streamId}`);
  for (const page of [trollPage, readerPage]) await expect(page.getByTestId('live-screen')).toBeVisible();
  await sendChatLine(trollPage, line);
  await expect(chatLine(readerPage, line)).toBeVisible();
  await chatLine(readerPage, line).getByRole('button', { name: 'Действия с сообщением: Тролль' }).click();
  await readerPage.getByRole('menuitem', { name: 'Пожаловаться' }).click();
  await report(readerPage, 'Враждебные высказывания', 'Оскорбляет зрителей');
  await expect(chatLine(readerPage, line)).toHaveCount(0);
  await readerPage.screenshot({ path: path.join(shots, `live-reported-${size}.png`) });

  // The moderator sees both, each with its content in place.
  const modPage = await pageFor(browser, moderator, viewport);
  await modPage.goto('/moderation');
  const postCard = modPage.getByRole('article', { name: 'Публикация' }).filter({ hasText: caption });
  const lineCard = modPage.getByRole('article', { name: `Сообщение в чате эфира «${streamTitle}»` });
  await expect(postCard).toBeVisible();
  await expect(lineCard).toBeVisible();
  await expect(postCard.getByText('Жалоб: 1')).toBeVisible();
  await expect(lineCard.getByText(line).first()).toBeVisible();
  await expect(lineCard.getByText('Оскорбляет зрителей')).toBeAttached();
  await expect(lineCard.getByText(`Автор: Тролль (@${troll.user.username})`)).toBeVisible();
  await modPage.screenshot({ path: path.join(shots, `queue-${size}.png`), fullPage: true });

  // Removing the post takes it away for everyone.
  await postCard.getByRole('button', { name: 'Удалить' }).click();
  await expect(postCard).toHaveCount(0);
  await expect
    .poll(async () => (await request.get(apiUrl(mediaEndpoints.post, { id: postId }))).status())
    .toBe(404);

  // Suspending the chat line's author, for good.
  await lineCard.getByRole('button', { name: 'Заблокировать автора' }).click();
  const sheet = modPage.getByRole('dialog', { name: 'Заблокировать автора' });
  await sheet.getByRole('radio', { name: 'Навсегда' }).check();
  await sheet.getByLabel('Причина (видна в журнале и заблокированному)').fill('Оскорбления');
  await modPage.screenshot({ path: path.join(shots, `suspend-${size}.png`) });
  await sheet.getByRole('button', { name: 'Заблокировать', exact: true }).click();
  await expect(lineCard).toHaveCount(0);

  // The troll's session is over: the API refuses the old token, and signing in says why.
  await expect
    .poll(async () => (await request.get(apiUrl(moderationEndpoints.me), { headers: auth(troll) })).status())
    .toBe(401);
  const login = await request.post(apiUrl(authEndpoints.login), {
    data: { username: troll.user.username, password: PASSWORD },
  });
  expect(login.status()).toBe(403);
  expect(((await login.json()) as { error: string }).error).toBe(
    'Ваш аккаунт заблокирован модератором навсегда. Причина: Оскорбления',
  );

  // The reader hears back, live, without the moderator being named; both notices are kept.
  const notice = readerPage.getByRole('status').filter({ hasText: 'Спасибо за жалобу' });
  await expect(notice).toContainText('Мы приняли меры: автор заблокирован.');
  await expect(notice).not.toContainText(MODERATOR);
  await readerPage.screenshot({ path: path.join(shots, `notice-${size}.png`) });
  const kept = await request.get(apiUrl(moderationEndpoints.notices), { headers: auth(reader) });
  const texts = ((await kept.json()) as { notices: { text: string }[] }).notices.map((n) => n.text);
  expect(texts).toEqual(
    expect.arrayContaining([
      'Спасибо за жалобу. Мы приняли меры: публикация удалена.',
      'Спасибо за жалобу. Мы приняли меры: автор заблокирован.',
    ]),
  );

  // The audit log lists both actions.
  await modPage.getByRole('tab', { name: 'Журнал' }).click();
  const log = modPage.getByRole('list', { name: 'Журнал' });
  await expect(log.getByText(`@${MODERATOR} удалил(а) публикацию №${postId}`)).toBeVisible();
  await expect(log.getByText(`@${MODERATOR} заблокировал(а) @${troll.user.username} навсегда`)).toBeVisible();
  await modPage.screenshot({ path: path.join(shots, `audit-${size}.png`), fullPage: true });
  await request.post(apiUrl(livestreamsEndpoints.end, { id: streamId }), { headers: auth(host) });
});
