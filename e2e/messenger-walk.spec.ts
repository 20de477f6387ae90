import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { apiUrl } from '@kadr/contract/browser';
import { channelsEndpoints } from '@kadr/contract/channels/endpoints';
import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import { settingsEndpoints } from '@kadr/contract/settings/endpoints';
import {
  auth,
  registerViaApi,
  SCREEN_SIZES,
  type Session,
  socketConnected,
  storeSessionBeforeLoad,
  uniqueUsername,
} from './helpers.ts';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect as baseExpect,
  type Locator,
  type Page,
  test,
} from './test.ts';

/**
 * The messenger, groups and channels items of the two- and three-user screen walk, as people
 * do them, at a phone's and a desktop's size: every screen touched is checked by axe, its new controls are
 * inside the viewport and not covered, and it is kept as a screenshot named by screen.
 */

// Pages load lazily and the shared machine is loaded (load averages of 30+): conditions, never sleeps.
const expect = baseExpect.configure({ timeout: 60_000 });
test.use({ actionTimeout: 60_000 });

const SIZES = SCREEN_SIZES;
const screensDir = join(process.cwd(), 'test-results', 'screens');
mkdirSync(screensDir, { recursive: true });

const message = (page: Page, text: string | RegExp) => page.getByTestId('message').filter({ hasText: text });

async function signedIn(
  browser: Browser,
  session: Session,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'ru-RU', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return { context, page };
}

async function sendViaApi(request: APIRequestContext, from: Session, target: object, content: string) {
  const res = await request.post(apiUrl(messengerEndpoints.send), {
    headers: auth(from),
    data: { ...target, content, temp_id: `w-${Date.now()}-${Math.random().toString(36).slice(2)}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).message as { id: number; content: string };
}

/** The control is on screen and nothing covers its centre (`elementFromPoint` is it or inside it). */
async function reachable(control: Locator, label: string): Promise<void> {
  await expect(control, label).toBeVisible();
  await expect(control, label).toBeInViewport({ ratio: 1 });
  const hit = await control.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && (top === el || el.contains(top));
  });
  expect(hit, `${label}: covered at its centre`).toBe(true);
}

/**
 * The screen at both sizes: axe finds no serious or critical violation, each control is reachable, and a
 * screenshot is kept (test-results/screens/<screen>-<size>.png).
 */
async function checkScreen(page: Page, screen: string, controls: (page: Page) => Locator[]): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const [i, control] of controls(page).entries())
      await reachable(control, `${screen} #${i} at ${size.name}`);
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const serious = axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `${screen} at ${size.name}`).toEqual([]);
    await page.screenshot({ path: join(screensDir, `${screen}-${size.name}.png`) });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

async function openMessageMenu(page: Page, text: string): Promise<Locator> {
  await message(page, text).locator('p').first().click({ button: 'right' });
  const menu = page.getByRole('menu', { name: 'Действия с сообщением' });
  await expect(menu).toBeVisible();
  return menu;
}

test('group: authors above bubbles, service lines, the pinned bar, an admin deletes a member’s message after a confirmation, the quick emoji reaction bar', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('ga'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('gb'), 'Борис');
  const c = await registerViaApi(request, uniqueUsername('gc'), 'Вера');
  const created = await request.post(apiUrl(groupsEndpoints.create), {
    headers: auth(a),
    data: { name: 'Походники', member_ids: [b.user.id] },
  });
  const group = (await created.json()) as { id: number; inviteToken: string };
  const joined = await request.post(apiUrl(groupsEndpoints.joinByInvite, { token: group.inviteToken }), {
    headers: auth(c),
  });
  expect(joined.status()).toBe(200);
  const target = { group_id: group.id };
  await sendViaApi(request, b, target, 'Идём в субботу?');
  await sendViaApi(request, b, target, 'Сбор в 9 у вокзала');
  await sendViaApi(request, c, target, 'Я за!');
  await sendViaApi(request, c, target, 'Возьму палатку');

  const A = await signedIn(browser, a);
  const voice404: string[] = [];
  A.page.on('response', (r) => {
    if (r.url().includes('/voice') && r.status() === 404) voice404.push(r.url());
  });
  await A.page.goto('/messenger');
  await A.page.getByTestId('chat-row').filter({ hasText: 'Походники' }).click();
  await expect(message(A.page, 'Возьму палатку')).toBeVisible();

  // Authors: the name above the first bubble of each run (coloured), the avatar beside its last.
  const boris = message(A.page, 'Идём в субботу?');
  await expect(boris.getByTestId('message-author')).toHaveText('Борис');
  await expect(message(A.page, 'Сбор в 9').getByTestId('message-author')).toHaveCount(0);
  await expect(message(A.page, 'Сбор в 9').getByTestId('author-avatar')).toHaveCount(1);
  await expect(boris.getByTestId('author-avatar')).toHaveCount(0);
  await expect(message(A.page, 'Я за!').getByTestId('message-author')).toHaveText('Вера');
  // The join left a service line, centred, nobody's bubble.
  await expect(A.page.getByTestId('service-line')).toContainText('Вера присоединился(-ась) к группе');

  // The owner pins Борис's message: the bar shows it; a tap on the bar brings it into view.
  let menu = await openMessageMenu(A.page, 'Сбор в 9');
  await menu.getByRole('menuitem', { name: 'Закрепить сообщение' }).click();
  const bar = A.page.getByTestId('pinned-bar');
  await expect(bar).toContainText('Сбор в 9 у вокзала');

  // The quick reaction bar: six emoji drawn from the shipped set (images that loaded, not a font's boxes).
  menu = await openMessageMenu(A.page, 'Я за!');
  await menu.getByRole('menuitem', { name: 'Реакция' }).click();
  const reactions = A.page.getByRole('toolbar', { name: 'Реакция' });
  await expect(reactions.getByRole('button')).toHaveCount(6);
  // The images load after the bar shows (they came back unloaded once on a busy machine): wait for them.
  await expect
    .poll(() =>
      reactions
        .locator('img')
        .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth > 0)),
    )
    .toEqual([true, true, true, true, true, true]);
  await checkScreen(A.page, 'reaction-bar', (p) => [p.getByRole('button', { name: 'Сердце' })]);
  await reactions.getByRole('button', { name: 'Сердце' }).click();
  const heart = message(A.page, 'Я за!').getByRole('button', { name: /^Сердце: 1/ });
  await expect(heart.locator('img')).toHaveAttribute('alt', '');
  await expect(heart).toHaveAttribute('aria-pressed', 'true');

  await checkScreen(A.page, 'group-chat', (p) => [
    p.getByTestId('pinned-bar').getByRole('button').first(),
    p.getByRole('textbox', { name: 'Сообщение' }),
  ]);
  await bar.getByRole('button').first().click();
  await expect(message(A.page, 'Сбор в 9')).toBeInViewport();

  // An admin deletes a member's message for everyone, only after saying yes.
  menu = await openMessageMenu(A.page, 'Возьму палатку');
  await menu.getByRole('menuitem', { name: 'Удалить у всех' }).click();
  const confirm = A.page.getByRole('alertdialog', { name: 'Удалить у всех?' });
  await expect(confirm).toBeVisible();
  await checkScreen(A.page, 'confirm-delete', (p) => [
    p.getByRole('alertdialog').getByRole('button', { name: 'Удалить у всех' }),
    p.getByRole('alertdialog').getByRole('button', { name: 'Отмена' }),
  ]);
  await confirm.getByRole('button', { name: 'Удалить у всех' }).click();
  await expect(message(A.page, 'Возьму палатку')).toHaveCount(0);
  const left = await request.get(apiUrl(groupsEndpoints.messages, { id: group.id }), { headers: auth(c) });
  expect(((await left.json()) as { content: string }[]).map((m) => m.content)).not.toContain(
    'Возьму палатку',
  );
  // Opening the group logged no 404 for its (absent) voice chat.
  expect(voice404).toEqual([]);
  await A.context.close();
});

test('personal chat: a long text splits with a counter, a restriction shows before writing, sending brings the view down and a jump button counts new messages', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('pa'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('pb'), 'Борис');
  const c = await registerViaApi(request, uniqueUsername('pc'), 'Вера');
  // Вера accepts messages only from people she follows (and she does not follow Анна).
  const privacy = await request.patch(apiUrl(settingsEndpoints.update), {
    headers: auth(c),
    data: { privacy: { messages: 'following' } },
  });
  expect(privacy.status()).toBe(200);
  // 45: the sender's limit is 60 messages a minute, and two more come below.
  for (let i = 1; i <= 45; i += 1)
    await sendViaApi(request, b, { other_user_id: a.user.id }, `Сообщение №${i}`);

  const A = await signedIn(browser, a);
  const connected = socketConnected(A.page);
  await A.page.goto(`/messenger/${c.user.username}`);
  // Before anything is typed: the reason, and a closed field.
  await expect(A.page.getByTestId('write-restriction')).toContainText(/подписан|только/i);
  await expect(A.page.getByRole('textbox', { name: 'Сообщение' })).toBeDisabled();
  await checkScreen(A.page, 'chat-restricted', (p) => [p.getByTestId('write-restriction')]);

  await A.page.goto(`/messenger/${b.user.username}`);
  await expect(message(A.page, 'Сообщение №45')).toBeVisible();
  await connected;

  // Scrolled up, new messages are counted on the jump-to-bottom button.
  const scroller = A.page.getByTestId('message-scroller');
  await scroller.evaluate((el) => {
    el.scrollTop = -1500;
    el.dispatchEvent(new Event('scroll'));
  });
  const jump = A.page.getByTestId('jump-to-bottom');
  await expect(jump).toBeVisible();
  await sendViaApi(request, b, { other_user_id: a.user.id }, 'Ты где?');
  await sendViaApi(request, b, { other_user_id: a.user.id }, 'Ау!');
  await expect(jump).toHaveAccessibleName('К новым сообщениям: 2');
  await checkScreen(A.page, 'chat-jump-to-bottom', (p) => [p.getByTestId('jump-to-bottom')]);
  await jump.click();
  await expect(message(A.page, 'Ау!')).toBeInViewport();

  // Sending while scrolled up brings the view down to the own message.
  await scroller.evaluate((el) => {
    el.scrollTop = -1500;
    el.dispatchEvent(new Event('scroll'));
  });
  await expect(message(A.page, 'Ау!')).not.toBeInViewport();
  const input = A.page.getByRole('textbox', { name: 'Сообщение' });
  await input.fill('Я тут');
  await A.page.getByRole('button', { name: 'Отправить' }).click();
  await expect(message(A.page, 'Я тут')).toBeInViewport();

  // A text over 4,096 characters: the counter says how it goes, and it goes as two messages.
  const long = `${'Длинный рассказ про поход. '.repeat(120)}Конец.`;
  expect(long.length).toBeGreaterThan(3000);
  const longer = `${long} ${long}`;
  await input.fill(longer);
  await expect(A.page.getByTestId('length-counter')).toContainText('уйдёт 2 сообщениями');
  await checkScreen(A.page, 'chat-long-text', (p) => [
    p.getByTestId('length-counter'),
    p.getByRole('button', { name: 'Отправить' }),
  ]);
  await A.page.getByRole('button', { name: 'Отправить' }).click();
  await expect(A.page.locator('[data-status="pending"], [data-status="failed"]')).toHaveCount(0);
  const history = await request.get(
    apiUrl(messengerEndpoints.conversation, undefined, { other_user_id: a.user.id, limit: 3 }),
    { headers: auth(b) },
  );
  const last = ((await history.json()) as { messages: { content: string }[] }).messages.slice(-2);
  expect(last).toHaveLength(2);
  for (const m of last) expect(m.content.length).toBeLessThanOrEqual(4096);
  expect(last.map((m) => m.content).join(' ')).toBe(longer.trim());
  await A.context.close();
});

test('search: people without a chat, a found message opens the chat at it, forward finds a person', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('sa'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('sb'), 'Борис');
  const d = await registerViaApi(request, uniqueUsername('sd'), 'Дмитрий Поисковый');
  const tag = Math.random().toString(36).slice(2, 8);
  await sendViaApi(request, b, { other_user_id: a.user.id }, `Пароль от вайфая ${tag}`);
  for (let i = 1; i <= 45; i += 1)
    await sendViaApi(request, b, { other_user_id: a.user.id }, `Болтовня ${i}`);

  const A = await signedIn(browser, a);
  await A.page.goto('/messenger');
  const search = A.page.getByRole('searchbox', { name: 'Поиск чатов...' });
  // People: someone one has no chat with.
  await search.fill('Дмитрий Поисковый');
  const person = A.page.getByTestId('people-search-hit').filter({ hasText: d.user.username });
  await expect(person).toBeVisible();
  await checkScreen(A.page, 'messenger-search', (p) => [p.getByTestId('people-search-hit').first()]);
  // A found message, far above the newest 30: the chat opens at it, marked.
  await search.fill(`вайфая ${tag}`);
  const hit = A.page.getByTestId('message-search-hit').first();
  await expect(hit).toBeVisible();
  await hit.click();
  const found = message(A.page, `Пароль от вайфая ${tag}`);
  await expect(found).toBeInViewport();
  await checkScreen(A.page, 'chat-found-message', () => []);
  // Back to the newest messages from the window around the found one.
  await A.page.getByTestId('jump-to-bottom').click();
  await expect(message(A.page, 'Болтовня 45')).toBeInViewport();

  // Forward to a person found by name in the sheet (no chat with them yet).
  const menu = await openMessageMenu(A.page, 'Болтовня 45');
  await menu.getByRole('menuitem', { name: 'Переслать' }).click();
  const sheet = A.page.getByRole('dialog', { name: 'Переслать в чат' });
  await sheet.getByRole('searchbox', { name: 'Поиск людей и чатов' }).fill('Дмитрий');
  const toPerson = sheet.getByTestId('forward-person').filter({ hasText: d.user.username });
  await expect(toPerson).toBeVisible();
  await checkScreen(A.page, 'forward-sheet', (p) => [p.getByTestId('forward-person').first()]);
  await toPerson.click();
  await expect
    .poll(async () => {
      const res = await request.get(
        apiUrl(messengerEndpoints.conversation, undefined, { other_user_id: a.user.id }),
        { headers: auth(d) },
      );
      return ((await res.json()) as { messages: { content: string }[] }).messages.map((m) => m.content);
    })
    .toContain('Болтовня 45');
  await A.context.close();
});

test('offline: «Ожидание сети…», a reload shows the kept chats, messages and draft; sign-out leaves nothing private', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('oa'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('ob'), 'Борис');
  await sendViaApi(request, b, { other_user_id: a.user.id }, 'Встречаемся в кафе');
  const A = await signedIn(browser, a);
  await A.page.goto(`/messenger/${b.user.username}`);
  await expect(message(A.page, 'Встречаемся в кафе')).toBeVisible();
  // The app's service worker serves the page when there is no network (it controls the page after a reload).
  await A.page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
  });
  await A.page.reload();
  await expect.poll(() => A.page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(message(A.page, 'Встречаемся в кафе')).toBeVisible();
  await A.page.getByRole('textbox', { name: 'Сообщение' }).fill('Черновик про кафе');
  // The draft and the chat cache reach the device's stores: the draft a moment after typing stops, the messenger's
  // snapshot (the list and the open chat's messages) a second after the cache last changed. Going offline before
  // the snapshot holds the chat reloaded into the kept list without the chat once.
  const kept = (name: string) =>
    A.page.evaluate(
      (db) =>
        new Promise<string>((resolve) => {
          const open = indexedDB.open(db);
          open.onsuccess = () => {
            if (!open.result.objectStoreNames.contains('keyval')) return resolve('');
            const all = open.result.transaction('keyval').objectStore('keyval').getAll();
            all.onsuccess = () => resolve(JSON.stringify(all.result));
            all.onerror = () => resolve('');
          };
          open.onerror = () => resolve('');
        }),
      name,
    );
  await expect.poll(() => kept('kadr-drafts')).toContain('Черновик про кафе');
  // The chat's own messages, not the list's preview of its last one (the same text): with only the list kept, the
  // reload below opened the list without the chat.
  const keptInChat = async (text: string) => {
    const snapshots = JSON.parse((await kept('kadr-query-cache')) || '[]') as Array<{
      conversations?: Array<[number, { messages: Array<{ content: string }> }]>;
    }>;
    return snapshots.some((s) =>
      s.conversations?.some(([, c]) => c.messages.some((m) => m.content === text)),
    );
  };
  await expect.poll(() => keptInChat('Встречаемся в кафе')).toBe(true);

  await A.context.setOffline(true);
  await expect(A.page.getByTestId('chat-status')).toHaveText('Ожидание сети…');
  await A.page.reload();
  await expect(message(A.page, 'Встречаемся в кафе')).toBeVisible();
  await expect(A.page.getByRole('textbox', { name: 'Сообщение' })).toHaveValue('Черновик про кафе');
  await expect(A.page.getByTestId('chat-status')).toHaveText('Ожидание сети…');
  await checkScreen(A.page, 'chat-offline', (p) => [p.getByRole('textbox', { name: 'Сообщение' })]);
  // The kept chat list (the page itself was not loaded online at /messenger: go there inside the app).
  await A.page.getByTestId('chat-back').click();
  await expect(A.page.getByTestId('chat-row').filter({ hasText: 'Борис' })).toBeVisible();
  await checkScreen(A.page, 'messenger-offline', (p) => [p.getByTestId('chat-row').first()]);

  // A message written offline waits in the outbox; signing out takes it and the rest away.
  await A.page.getByTestId('chat-row').filter({ hasText: 'Борис' }).click();
  const input = A.page.getByRole('textbox', { name: 'Сообщение' });
  await input.fill('Не отправлено');
  await A.page.getByRole('button', { name: 'Отправить' }).click();
  await expect
    .poll(() => A.page.evaluate(() => localStorage.getItem('messenger_outbox') ?? ''))
    .toContain('Не отправлено');
  // Still offline (it would be sent the moment the network is back): sign out from the shell's menu.
  await A.page.getByTestId('chat-back').click();
  await A.page.getByRole('button', { name: 'Открыть меню', exact: true }).click();
  await A.page.getByRole('menuitem', { name: 'Выйти' }).click();
  await expect(A.page).toHaveURL(/\/login$/);
  const left = await A.page.evaluate(async () => {
    const stores = await Promise.all(
      ['kadr-drafts', 'kadr-query-cache'].map(
        (name) =>
          new Promise<number>((resolve) => {
            const open = indexedDB.open(name);
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains('keyval')) return resolve(0);
              const count = db.transaction('keyval').objectStore('keyval').count();
              count.onsuccess = () => resolve(count.result);
            };
          }),
      ),
    );
    return {
      outbox: localStorage.getItem('messenger_outbox'),
      token: localStorage.getItem('auth:accessToken'),
      stores,
    };
  });
  expect(left).toEqual({ outbox: null, token: null, stores: [0, 0] });
  await A.context.close();
});

test('new messages elsewhere: an in-app banner that opens the chat (not for a muted chat), and the count on the back arrow', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('ba'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('bb'), 'Борис');
  const c = await registerViaApi(request, uniqueUsername('bc'), 'Вера');
  // Вера's chat is muted by Анна.
  await sendViaApi(request, c, { other_user_id: a.user.id }, 'Привет, это Вера');
  const muted = await request.put(apiUrl(settingsEndpoints.mute), {
    headers: auth(a),
    data: { chat: { chat_user_id: c.user.id }, duration: 'forever' },
  });
  expect(muted.status()).toBe(200);
  const A = await signedIn(browser, a);
  const connected = socketConnected(A.page);
  await A.page.goto('/home');
  await connected;
  await sendViaApi(request, b, { other_user_id: a.user.id }, 'Смотри, что нашёл!');
  const banner = A.page.getByTestId('message-banner');
  await expect(banner).toContainText('Борис');
  await expect(banner).toContainText('Смотри, что нашёл!');
  // Focus holds it (it waits while one reads it); then it is checked at both sizes.
  await banner.getByRole('button').first().focus();
  await checkScreen(A.page, 'message-banner', (p) => [
    p.getByTestId('message-banner').getByRole('button').first(),
  ]);
  await banner.getByRole('button').first().click();
  await expect(A.page).toHaveURL(new RegExp(`/messenger/${b.user.username}$`));
  await expect(message(A.page, 'Смотри, что нашёл!')).toBeVisible();

  // In the open chat a muted chat's message shows no banner; the back arrow counts the unread elsewhere.
  // Every banner that ever shows is recorded: one from an unmuted chat after it proves the muted one was
  // handled (and skipped), not merely slow.
  await A.page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __banners: string[] }).__banners = seen;
    new MutationObserver(() => {
      const shown = document.querySelector('[data-testid="message-banner"]');
      if (shown?.textContent) seen.push(shown.textContent);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await sendViaApi(request, c, { other_user_id: a.user.id }, 'Ты видел?');
  await expect(A.page.getByTestId('back-unread')).toHaveText('2');
  const d = await registerViaApi(request, uniqueUsername('bd'), 'Дима');
  await sendViaApi(request, d, { other_user_id: a.user.id }, 'Это Дима');
  await expect(banner).toContainText('Это Дима');
  const shown = await A.page.evaluate(() => (window as unknown as { __banners: string[] }).__banners);
  expect(shown.some((text) => text.includes('Ты видел?'))).toBe(false);
  await expect(A.page.getByTestId('back-unread')).toHaveText('3');
  // The banner lies over the top of the screen while it shows (as Telegram's): closed, the arrow is free.
  await banner.getByRole('button', { name: 'Закрыть' }).click();
  await expect(banner).toHaveCount(0);
  await checkScreen(A.page, 'chat-back-unread', (p) =>
    p.viewportSize()?.width === 390 ? [p.getByTestId('chat-back')] : [],
  );
  await A.context.close();
});

test('«Медиа из чата» shows the chat’s photos; a channel preview renders markdown and goes back', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const a = await registerViaApi(request, uniqueUsername('ma'), 'Анна');
  const b = await registerViaApi(request, uniqueUsername('mb'), 'Борис');
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  const uploaded = await request.post(apiUrl(messengerEndpoints.attachments), {
    headers: auth(b),
    multipart: { files: { name: 'photo.png', mimeType: 'image/png', buffer: png } },
  });
  expect(uploaded.status()).toBe(200);
  const fileId = ((await uploaded.json()) as { files: { id: number }[] }).files[0]?.id as number;
  await sendViaApi(request, b, { other_user_id: a.user.id, attachment_ids: [fileId] }, 'Фото с похода');
  const slug = `walk_${Math.random().toString(36).slice(2, 8)}`;
  const channel = await request.post(apiUrl(channelsEndpoints.create), {
    headers: auth(b),
    data: { name: 'Походы', slug },
  });
  expect(channel.status()).toBe(200);
  const channelId = ((await channel.json()) as { id: number }).id;
  await sendViaApi(request, b, { channel_id: channelId }, '**Маршрут** на _субботу_');

  const A = await signedIn(browser, a);
  await A.page.goto(`/messenger/${b.user.username}`);
  // The photo is processed after upload: the bubble shows it once it is ready.
  await expect(message(A.page, 'Фото с похода').locator('img')).toHaveAttribute('src', /\/files\//, {
    timeout: 120_000,
  });
  await A.page.getByRole('button', { name: 'Медиа из чата' }).click();
  const sheet = A.page.getByRole('dialog', { name: 'Медиа из чата' });
  await expect(sheet.getByTestId('shared-media-grid').locator('img')).toHaveCount(1, { timeout: 90_000 });
  await checkScreen(A.page, 'chat-media', (p) => [
    p.getByTestId('shared-media-grid').getByRole('button').first(),
  ]);
  await sheet.getByRole('tab', { name: 'Файлы' }).click();
  await expect(sheet.getByText('В этом чате ещё нет файлов')).toBeVisible();
  await sheet.getByRole('button', { name: 'Закрыть' }).click();

  await A.page.goto('/messenger');
  await A.page.goto(`/messenger/channel/${slug}`);
  const post = A.page.getByTestId('preview-post');
  await expect(post.locator('strong')).toHaveText('Маршрут');
  await expect(post).not.toContainText('**');
  await checkScreen(A.page, 'channel-preview', (p) => [p.getByTestId('preview-back')]);
  await A.page.getByTestId('preview-back').click();
  await expect(A.page).toHaveURL(/\/messenger$/);
  await A.context.close();
});
