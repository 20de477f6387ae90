import { randomUUID } from 'node:crypto';
import { apiUrl } from '@kadr/contract/browser';
import { messengerEndpoints } from '@kadr/contract/messenger/endpoints';
import {
  MEDIA_PROCESSING_MS,
  registerViaApi,
  type Session,
  socketConnected,
  storeSessionBeforeLoad,
  uniqueUsername,
  withMediaProcessing,
} from './helpers.ts';
import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from './test.ts';

const SHOTS = process.env.KADR_SCREENSHOTS_DIR;

async function signedIn(browser: Browser, session: Session, size = { width: 390, height: 844 }) {
  const context = await browser.newContext({
    locale: 'ru-RU',
    viewport: size,
    hasTouch: size.width < 600,
  });
  const page = await context.newPage();
  await storeSessionBeforeLoad(page, session);
  return { context, page };
}

async function sendViaApi(request: APIRequestContext, from: Session, to: Session, content: string) {
  const res = await request.post(apiUrl(messengerEndpoints.send), {
    headers: { authorization: `Bearer ${from.access_token}` },
    data: { other_user_id: to.user.id, content, temp_id: `e2e-${randomUUID()}` },
  });
  expect(res.status()).toBe(200);
}

const message = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });

/** A finger held on the element (CDP touch events), released once `until` holds. */
async function longPress(page: Page, target: Locator, until: Locator): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to press');
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await expect(until).toBeVisible();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test('unread total on the messenger entry, typing in the chat row, long-press menu and live reactions', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const a = await registerViaApi(request, uniqueUsername('ra'), 'Алиса');
  const b = await registerViaApi(request, uniqueUsername('rb'), 'Богдан');
  await sendViaApi(request, a, b, 'Привет, как дела?');

  // B, on the feed, sees the unread total on the messenger's navigation entry, and it moves live.
  const B = await signedIn(browser, b);
  const live = socketConnected(B.page);
  await B.page.goto('/messenger');
  // On a phone the count sits on the navigation button's track (the desktop side rail is hidden).
  const total = B.page.getByTestId('nav-track').getByTestId('messenger-unread-total');
  // The first page of a run can take long on a loaded machine (a condition, not a timing assertion).
  await expect(total).toHaveText('1', { timeout: 60_000 });
  // The socket connects once the page is idle, and its first connection does not ask again for the list the
  // page has just loaded: the count moves live from then on.
  await live;
  await sendViaApi(request, a, b, 'Ты тут?');
  await expect(total).toHaveText('2');
  await expect(total).toHaveAccessibleName('Непрочитанных: 2');
  await shot(B.page, 'phone-unread-total');

  // A types in the chat: B's chat list row says so instead of the preview.
  const A = await signedIn(browser, a);
  // A types once its socket is up: keystrokes before that announce nothing (the chat itself loads over HTTP,
  // so a visible message does not mean the socket is connected).
  const connected = socketConnected(A.page);
  await A.page.goto(`/messenger/${b.user.username}`);
  await expect(message(A.page, 'Ты тут?')).toBeVisible({ timeout: 60_000 });
  await connected;
  const row = B.page.getByTestId('chat-row').filter({ hasText: 'Алиса' });
  await A.page.getByRole('textbox', { name: 'Сообщение' }).pressSequentially('печатаю');
  await expect(row.getByTestId('row-typing')).toHaveText('печатает...');
  await shot(B.page, 'phone-row-typing');

  // B opens the chat (the total goes away once read) and long-presses A's message: the menu has the actions.
  await row.click();
  await expect(total).toHaveCount(0);
  const menu = B.page.getByRole('menu', { name: 'Действия с сообщением' });
  await longPress(B.page, message(B.page, 'Ты тут?').locator('p').first(), menu);
  for (const item of ['Копировать', 'Реакция', 'Переслать', 'Удалить у меня'])
    await expect(menu.getByRole('menuitem', { name: item })).toBeVisible();
  await shot(B.page, 'phone-long-press-menu');
  await menu.getByRole('menuitem', { name: 'Реакция' }).click();
  // The quick bar: six emoji from the shipped set.
  const picker = B.page.getByRole('toolbar', { name: 'Реакция' });
  await expect(picker.getByRole('button')).toHaveCount(6);
  await shot(B.page, 'phone-reaction-picker');
  await picker.getByRole('button', { name: 'Сердце' }).click();

  // A sees B's heart live, with who reacted; A adds theirs by tapping it, and B sees the count go to 2.
  const heartAtA = message(A.page, 'Ты тут?').getByRole('button', { name: /^Сердце: / });
  await expect(heartAtA).toHaveAccessibleName('Сердце: 1 — Богдан');
  await expect(heartAtA).toHaveAttribute('aria-pressed', 'false');
  await heartAtA.click();
  await expect(heartAtA).toHaveAccessibleName('Сердце: 2 — Богдан, Алиса');
  await expect(heartAtA).toHaveAttribute('aria-pressed', 'true');
  const heartAtB = message(B.page, 'Ты тут?').getByRole('button', { name: /^Сердце: / });
  await expect(heartAtB).toHaveAccessibleName('Сердце: 2 — Богдан, Алиса');
  await shot(B.page, 'phone-reactions');
  // B takes theirs back (toggle), A sees it live.
  await heartAtB.click();
  await expect(heartAtA).toHaveAccessibleName('Сердце: 1 — Алиса');

  // After a reload the reactions come from the server.
  await A.page.reload();
  await expect(message(A.page, 'Ты тут?').getByRole('button', { name: 'Сердце: 1 — Алиса' })).toBeVisible();
  await shot(A.page, 'phone-reactions-after-reload');

  await A.context.close();
  await B.context.close();
});

test('desktop: right-click opens the same message menu; reactions and the unread total in the side rail', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const a = await registerViaApi(request, uniqueUsername('da'), 'Дарья');
  const b = await registerViaApi(request, uniqueUsername('db'), 'Денис');
  await sendViaApi(request, a, b, 'Смотри, что нашла');
  const B = await signedIn(browser, b, { width: 1440, height: 900 });
  await B.page.goto('/messenger');
  await expect(
    B.page.getByRole('navigation', { name: 'Разделы' }).getByTestId('messenger-unread-total'),
  ).toHaveText('1', { timeout: 60_000 });
  await shot(B.page, 'desktop-unread-total');
  await B.page.getByTestId('chat-row').filter({ hasText: 'Дарья' }).click();
  await message(B.page, 'Смотри').locator('p').first().click({ button: 'right' });
  const menu = B.page.getByRole('menu', { name: 'Действия с сообщением' });
  await expect(menu.getByRole('menuitem', { name: 'Реакция' })).toBeVisible();
  await shot(B.page, 'desktop-message-menu');
  await menu.getByRole('menuitem', { name: 'Реакция' }).click();
  await B.page.getByRole('toolbar', { name: 'Реакция' }).getByRole('button', { name: 'Огонь' }).click();
  await expect(message(B.page, 'Смотри').getByRole('button', { name: 'Огонь: 1 — Денис' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await shot(B.page, 'desktop-reactions');
  await B.context.close();
});

test('voice message from the fake microphone: hold to record, received live, played at the right length; reply in a personal chat', async ({
  browser,
  request,
}) => {
  test.setTimeout(withMediaProcessing(240_000));
  const a = await registerViaApi(request, uniqueUsername('va'), 'Вера');
  const b = await registerViaApi(request, uniqueUsername('vb'), 'Виктор');
  await sendViaApi(request, b, a, 'Запиши голосовое');
  const A = await signedIn(browser, a);
  const B = await signedIn(browser, b);
  await A.page.goto(`/messenger/${b.user.username}`);
  await B.page.goto(`/messenger/${a.user.username}`);
  await expect(message(A.page, 'Запиши голосовое')).toBeVisible({ timeout: 60_000 });
  await expect(message(B.page, 'Запиши голосовое')).toBeVisible({ timeout: 60_000 });

  // A holds the microphone (a finger, CDP touch) until the recorder has run 3 s, then lets go. Its own count,
  // not the text: on a loaded machine two looks at the timer were 1.9 s apart and passed 0:03 between them.
  const mic = A.page.getByTestId('voice-record');
  const box = await mic.boundingBox();
  if (!box) throw new Error('no microphone button');
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await A.context.newCDPSession(A.page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  const timer = A.page.getByTestId('voice-timer');
  await expect
    .poll(async () => Number(await timer.getAttribute('data-elapsed-ms')), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(3000);
  await expect(timer).toHaveText(/^0:0[3-9]$/);
  await expect(A.page.getByTestId('voice-recording')).toContainText('Влево — отмена');
  await shot(A.page, 'phone-voice-recording');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  // The recorder's own measure, from start to stop.
  await expect(mic).toHaveAttribute('data-recorded-ms', /^\d+$/);
  const recordedMs = Number(await mic.getAttribute('data-recorded-ms'));
  expect(recordedMs).toBeGreaterThan(2500);

  // B gets it live, processed (a waveform from the audio), plays it: the length is the recording's within 10 %.
  // The recording is processed before it is sent, at the lowest priority: long on a busy machine.
  const voiceAtB = B.page.getByTestId('voice-message');
  await expect(voiceAtB).toBeVisible({ timeout: MEDIA_PROCESSING_MS });
  // The server's waveform brought to the bars a bubble holds (VOICE_BARS in waveform-bars.ts).
  await expect(voiceAtB.getByTestId('voice-waveform').locator('span')).toHaveCount(48);
  await shot(B.page, 'phone-voice-bubble');
  // B's chat list names it as a voice message, not a generic attachment.
  const list = await B.context.newPage();
  await list.goto('/messenger');
  await expect(list.getByTestId('chat-row').filter({ hasText: 'Вера' })).toContainText(
    'Голосовое сообщение',
    {
      timeout: 60_000,
    },
  );
  await shot(list, 'phone-voice-chat-row');
  await list.close();
  await voiceAtB.getByRole('button', { name: 'Воспроизвести' }).click();
  await expect(voiceAtB.getByRole('button', { name: 'Пауза' })).toBeVisible();
  const audio = voiceAtB.getByTestId('voice-audio');
  await expect
    .poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(0.5);
  const seconds = await audio.evaluate((el: HTMLAudioElement) => el.duration);
  expect(Math.abs(seconds * 1000 - recordedMs) / recordedMs).toBeLessThan(0.1);
  await voiceAtB.getByTestId('voice-rate').click();
  await expect(voiceAtB.getByTestId('voice-rate')).toHaveText('1,5×');
  expect(await audio.evaluate((el: HTMLAudioElement) => el.playbackRate)).toBe(1.5);
  await shot(B.page, 'phone-voice-playing');
  await voiceAtB.getByTestId('voice-rate').click();
  await expect(voiceAtB.getByTestId('voice-rate')).toHaveText('2×');
  // Downloadable like any attachment.
  const href = await voiceAtB.getByRole('link', { name: 'Скачать' }).getAttribute('href');
  const file = await B.page.request.get(href ?? '');
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toBe('audio/mp4');

  // Reply in a personal chat: B long-presses the voice message, replies, A sees the quote.
  const menu = B.page.getByRole('menu', { name: 'Действия с сообщением' });
  await longPress(B.page, voiceAtB.getByTestId('voice-time'), menu);
  await menu.getByRole('menuitem', { name: 'Ответить' }).click();
  await expect(B.page.getByTestId('reply-bar')).toContainText('Ответ Вера');
  await B.page.getByRole('textbox', { name: 'Сообщение' }).fill('Классно звучит');
  await B.page.getByRole('button', { name: 'Отправить' }).click();
  await expect(B.page.getByTestId('reply-bar')).toHaveCount(0);
  const reply = message(A.page, 'Классно звучит');
  await expect(reply.getByTestId('reply-quote')).toContainText('Вера');
  await shot(A.page, 'phone-voice-reply');
  if (SHOTS) {
    await B.page.setViewportSize({ width: 1440, height: 900 });
    await expect(voiceAtB).toBeVisible();
    await shot(B.page, 'desktop-voice-bubble');
    await B.page.setViewportSize({ width: 390, height: 844 });
  }

  // Sliding left while holding throws the recording away: nothing is sent.
  const count = await A.page.getByTestId('voice-message').count();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await expect(timer).toHaveText('0:01', { timeout: 20_000 });
  await cdp.send('Input.dispatchTouchEvent', {
    type: 'touchMove',
    touchPoints: [{ x: point.x - 200, y: point.y }],
  });
  await expect(A.page.getByText('Запись отменена')).toBeVisible();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect(A.page.getByTestId('voice-recording')).toHaveCount(0);
  await expect(A.page.getByTestId('voice-message')).toHaveCount(count);

  await A.context.close();
  await B.context.close();
});
