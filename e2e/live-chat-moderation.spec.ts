import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { LiveSocketAck } from '@kadr/contract';
import { apiUrl } from '@kadr/contract/browser';
import { livestreamsEndpoints } from '@kadr/contract/livestreams/endpoints';
import { io } from 'socket.io-client';
import {
  auth,
  configuredModerator,
  registerViaApi,
  type Session,
  storeSessionBeforeLoad,
  uniqueUsername,
} from './helpers.ts';
import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from './test.ts';

/**
 * The live chat is the server's: a viewer cannot put a line in another viewer's chat under someone else's
 * name, whatever they send over the socket or the media connection; the host deletes a line, mutes and bans
 * a viewer, and slow mode holds. The live header fits a phone with a long and a short title.
 */

const screensDir = path.join(import.meta.dirname, '..', 'test-results', 'screens');
const SIZES = [
  { name: '390x844', width: 390, height: 844 },
  { name: '1440x900', width: 1440, height: 900 },
] as const;
/** Connecting to the media server took 7–15 s on the loaded shared machine. */
const MEDIA_MS = 90_000;

async function livePage(browser: Browser, session: Session): Promise<Page> {
  const context = await browser.newContext({ locale: 'ru-RU', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    (window as unknown as { __kadrE2E: boolean }).__kadrE2E = true;
  });
  await storeSessionBeforeLoad(page, session);
  return page;
}

async function startStream(request: APIRequestContext, host: Session, title: string): Promise<number> {
  const res = await request.post(apiUrl(livestreamsEndpoints.create), {
    headers: auth(host),
    data: { title },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** Inside the viewport and not covered: the element at its centre is the control (or inside it). */
async function reachable(control: Locator, label: string) {
  await expect(control, label).toBeVisible();
  const inside = await control.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return (
      box.left >= 0 && box.top >= 0 && box.right <= window.innerWidth && box.bottom <= window.innerHeight
    );
  });
  expect(inside, `${label}: inside the viewport`).toBe(true);
  const hit = await control.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && (top === el || el.contains(top));
  });
  expect(hit, `${label}: not covered at its centre`).toBe(true);
}

/**
 * The header's controls at both sizes, axe without a serious or critical finding, and a screenshot of the
 * screen at each (test-results/screens; the ones kept are in docs/screens/live-stream).
 */
async function checkHeader(page: Page, screen: string, controls: (page: Page) => Locator[]) {
  mkdirSync(screensDir, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    const header = page.getByTestId('live-header');
    const width = await header.evaluate((el) => el.getBoundingClientRect().width);
    expect(width, `${screen}: header width at ${size.name}`).toBeLessThanOrEqual(size.width);
    for (const [i, control] of controls(page).entries())
      await reachable(control, `${screen} #${i} at ${size.name}`);
    // The title keeps real room beside the controls (it once collapsed to an ellipsis): whole, or 200 px.
    const title = page.getByTestId('live-title');
    await reachable(title, `${screen} title at ${size.name}`);
    const room = await title.evaluate((el) => ({
      shown: el.getBoundingClientRect().width,
      needed: el.scrollWidth,
    }));
    expect(room.shown, `${screen}: title width at ${size.name}`).toBeGreaterThanOrEqual(
      Math.min(room.needed, 200),
    );
    const axe = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const serious = axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `${screen} at ${size.name}: axe`).toEqual([]);
    await page.screenshot({ path: path.join(screensDir, `${screen}-${size.name}.png`) });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

function chatLine(page: Page, text: string): Locator {
  return page.getByTestId('live-chat').getByRole('listitem').filter({ hasText: text });
}

async function send(page: Page, text: string) {
  const input = page.getByRole('textbox', { name: 'Сообщение' });
  await input.fill(text);
  await input.press('Enter');
}

async function moderate(page: Page, author: string, text: string, action: string) {
  await chatLine(page, text)
    .getByRole('button', { name: `Действия с сообщением: ${author}` })
    .click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('live chat: identity from the server, the host deletes, mutes, bans and holds slow mode; the header fits a phone', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(600_000);
  const host = await registerViaApi(request, uniqueUsername('lh'), 'Хозяйка эфира');
  const valera = await registerViaApi(request, uniqueUsername('lv'), 'Валера');
  const vika = await registerViaApi(request, uniqueUsername('lw'), 'Вика');
  const longTitle = 'Вечерняя прогулка по набережной!';
  expect(longTitle).toHaveLength(32);
  const streamId = await startStream(request, host, longTitle);

  const H = await livePage(browser, host);
  const V = await livePage(browser, valera);
  const W = await livePage(browser, vika);
  for (const page of [H, V, W]) await page.goto(`/live/${streamId}`);
  for (const page of [H, V, W]) await expect(page.getByTestId('live-screen')).toBeVisible();
  await expect(V.getByTestId('live-title')).toHaveText(longTitle);
  // The viewer sees who is on air: the host's name and a follow button.
  await expect(V.getByRole('region', { name: 'Автор эфира: Хозяйка эфира' })).toBeVisible();

  // The header at a phone's and a desktop's size, for the host and for a viewer, with a 32-character title.
  await checkHeader(H, 'live-stream-host', (p) => [
    p.getByRole('button', { name: 'Завершить эфир' }),
    p.getByTestId('live-viewer-count'),
  ]);
  await checkHeader(V, 'live-stream-viewer', (p) => [
    p.getByRole('button', { name: 'Выйти' }),
    p.getByTestId('live-viewer-count'),
    p.getByRole('button', { name: 'Подписаться' }),
  ]);
  await V.getByRole('button', { name: 'Подписаться' }).click();
  await expect(V.getByRole('button', { name: 'Отписаться' })).toHaveAttribute('aria-pressed', 'true');

  // Lines come from the server with the author it knows.
  await send(V, 'Привет всем');
  await expect(chatLine(W, 'Привет всем').getByTestId('live-chat-author')).toHaveText('Валера');
  await expect(chatLine(H, 'Привет всем').getByTestId('live-chat-author')).toHaveText('Валера');

  // Forgery over the socket: Valera's session sends a line claiming to be the host in every field.
  const socket = io(baseURL ?? 'http://localhost:3100', {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token: valera.access_token },
    reconnection: false,
    forceNew: true,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const forged = {
      stream_id: streamId,
      content: 'Я хозяйка этого эфира',
      temp_id: 'forged-1',
      sender_id: host.user.id,
      sender_name: 'Хозяйка эфира',
    };
    const ack = await new Promise<LiveSocketAck>((resolve) =>
      socket.emit('live-stream-message', forged, resolve),
    );
    expect(ack).toEqual({ ok: true });
    const forgedLine = chatLine(W, 'Я хозяйка этого эфира');
    await expect(forgedLine).toBeVisible();
    await expect(forgedLine.getByTestId('live-chat-author')).toHaveText('Валера');

    // Forgery over the media connection (when a media server runs): a packet straight through LiveKit
    // claiming the host's name never becomes a line anywhere.
    const token = await request.get(apiUrl(livestreamsEndpoints.token, { id: streamId }), {
      headers: auth(valera),
    });
    if (token.status() === 200) {
      await expect
        .poll(() => V.evaluate(() => Boolean((window as { __kadrLive?: unknown }).__kadrLive)), {
          timeout: MEDIA_MS,
        })
        .toBe(true);
      const sent = await V.evaluate(async (id) => {
        const live = (
          window as unknown as {
            __kadrLive: {
              room: {
                livekitRoom: {
                  name: string;
                  localParticipant: { publishData(data: Uint8Array, options: object): Promise<void> };
                };
              };
            };
          }
        ).__kadrLive;
        const room = live.room.livekitRoom;
        const packet = {
          type: 'live-stream-message',
          stream_id: id,
          content: 'Пакет от имени хозяйки',
          sender_id: 1,
          sender_name: 'Хозяйка эфира',
          temp_id: 'packet-1',
        };
        try {
          await room.localParticipant.publishData(new TextEncoder().encode(JSON.stringify(packet)), {
            reliable: true,
            topic: `live-chat:${room.name}`,
          });
          return 'sent';
        } catch (error) {
          return String(error);
        }
      }, streamId);
      test.info().annotations.push({ type: 'media data packet', description: sent });
    } else {
      test.info().annotations.push({ type: 'media server', description: `token answered ${token.status()}` });
    }
    // A line sent after the packet arrives first at Vika's: by then the packet would have too.
    await send(V, 'Контрольная строка');
    await expect(chatLine(W, 'Контрольная строка')).toBeVisible();
    await expect(chatLine(W, 'Пакет от имени хозяйки')).toHaveCount(0);
    await expect(chatLine(H, 'Пакет от имени хозяйки')).toHaveCount(0);

    // The host deletes a line: it vanishes for everyone.
    await moderate(H, 'Валера', 'Контрольная строка', 'Удалить сообщение');
    await expect(chatLine(W, 'Контрольная строка')).toHaveCount(0);
    await expect(chatLine(V, 'Контрольная строка')).toHaveCount(0);
    await expect(chatLine(H, 'Контрольная строка')).toHaveCount(0);

    // The host mutes Valera: his input says so, and the server refuses whatever he sends.
    await moderate(H, 'Валера', 'Привет всем', 'Запретить писать в чат');
    await expect(V.getByTestId('live-chat-error')).toHaveText('Автор эфира ограничил вам чат');
    await expect(V.getByRole('textbox', { name: 'Сообщение' })).toBeDisabled();
    const muted = await new Promise<LiveSocketAck>((resolve) =>
      socket.emit(
        'live-stream-message',
        { stream_id: streamId, content: 'Всё равно напишу', temp_id: 'm-1' },
        resolve,
      ),
    );
    expect(muted).toMatchObject({ ok: false, code: 'chat_muted' });
  } finally {
    socket.disconnect();
  }

  // Slow mode: one line per 30 s for Vika; the second is refused with the time left and never shown.
  await H.getByTestId('live-slow-mode').selectOption('30');
  await expect(W.getByText('Медленный режим: одно сообщение в 30 с')).toBeVisible();
  await send(W, 'Первая строка');
  await expect(chatLine(H, 'Первая строка')).toBeVisible();
  await send(W, 'Вторая строка');
  await expect(W.getByTestId('live-chat-error')).toContainText('Медленный режим: следующее сообщение через');
  await expect(W.getByRole('textbox', { name: 'Сообщение' })).toHaveValue('Вторая строка');
  await send(H, 'Ведущая отвечает');
  await expect(chatLine(W, 'Ведущая отвечает')).toBeVisible();
  await expect(chatLine(H, 'Вторая строка')).toHaveCount(0);
  await checkHeader(W, 'live-stream-viewer-slow-mode', (p) => [p.getByRole('button', { name: 'Выйти' })]);

  // The host bans Vika: she is out now, and a reload does not let her back in.
  await checkHeader(H, 'live-stream-host-moderating', (p) => [
    p.getByRole('button', { name: 'Действия с сообщением: Вика' }),
  ]);
  await moderate(H, 'Вика', 'Первая строка', 'Удалить из эфира');
  await expect(W.getByTestId('live-banned')).toHaveText(/Автор эфира закрыл вам доступ к эфиру/);
  await W.reload();
  await expect(W.getByTestId('live-banned')).toBeVisible();
  await W.screenshot({ path: path.join(screensDir, 'live-stream-banned-390x844.png') });

  // A guest the host removes from the stage is told so.
  const added = await request.post(apiUrl(livestreamsEndpoints.addGuest, { id: streamId }), {
    headers: auth(host),
    data: { user_id: valera.user.id },
  });
  expect(added.status()).toBe(201);
  await expect(V.getByTestId('live-guest-removed')).toHaveCount(0);
  const removed = await request.delete(
    apiUrl(livestreamsEndpoints.removeGuest, { id: streamId, userId: valera.user.id }),
    { headers: auth(host) },
  );
  expect(removed.status()).toBe(204);
  await expect(V.getByTestId('live-guest-removed')).toHaveText('Автор эфира убрал вас со сцены');

  // A short title: the header keeps it whole, controls still on screen.
  await H.getByRole('button', { name: 'Завершить эфир' }).click();
  await expect(V.getByTestId('live-ended')).toBeVisible();
  const shortId = await startStream(request, host, 'Тест');
  await V.goto(`/live/${shortId}`);
  const title = V.getByTestId('live-title');
  await expect(title).toHaveText('Тест');
  const whole = await title.evaluate((el) => el.scrollWidth <= el.clientWidth && el.clientWidth > 20);
  expect(whole, 'the 4-character title is shown whole').toBe(true);
  await checkHeader(V, 'live-stream-viewer-short-title', (p) => [
    p.getByRole('button', { name: 'Выйти' }),
    p.getByTestId('live-viewer-count'),
    p.getByRole('button', { name: 'Отписаться' }),
    p.getByTestId('live-title'),
  ]);
  await request.post(apiUrl(livestreamsEndpoints.end, { id: shortId }), { headers: auth(host) });
});

test('a viewer reports a chat line; a moderator removes it from the queue and it leaves every screen of the stream', async ({
  browser,
  request,
}) => {
  test.setTimeout(600_000);
  const host = await registerViaApi(request, uniqueUsername('rh'), 'Ведущая');
  const troll = await registerViaApi(request, uniqueUsername('rt'), 'Тролль');
  const reader = await registerViaApi(request, uniqueUsername('rr'), 'Зритель');
  const moderator = await configuredModerator(request);
  const streamId = await startStream(request, host, 'Жалобы в чате');

  const H = await livePage(browser, host);
  const T = await livePage(browser, troll);
  const R = await livePage(browser, reader);
  for (const page of [H, T, R]) await page.goto(`/live/${streamId}`);
  for (const page of [H, T, R]) await expect(page.getByTestId('live-screen')).toBeVisible();
  await send(T, 'Грубая строчка');
  await expect(chatLine(R, 'Грубая строчка')).toBeVisible();
  await expect(chatLine(H, 'Грубая строчка')).toBeVisible();

  // The reader reports the line from its menu: it is hidden for the reader at once.
  await chatLine(R, 'Грубая строчка').getByRole('button', { name: 'Действия с сообщением: Тролль' }).click();
  await R.getByRole('menuitem', { name: 'Пожаловаться' }).click();
  const sheet = R.getByRole('dialog');
  await sheet.getByRole('radio', { name: 'Враждебные высказывания' }).check();
  await sheet.getByRole('button', { name: 'Отправить жалобу' }).click();
  await expect(R.getByRole('alert').filter({ hasText: 'Жалоба отправлена' })).toBeVisible();
  await expect(chatLine(R, 'Грубая строчка')).toHaveCount(0);
  await expect(chatLine(H, 'Грубая строчка')).toBeVisible();

  // The moderator sees the line in place, in its stream's chat, and removes it for everyone.
  const M = await livePage(browser, moderator);
  await M.goto('/moderation');
  const card = M.getByRole('article', { name: 'Сообщение в чате эфира «Жалобы в чате»' });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card.getByText('Грубая строчка').first()).toBeVisible();
  await card.getByRole('button', { name: 'Удалить' }).click();
  await expect(card).toHaveCount(0);
  await expect(chatLine(H, 'Грубая строчка')).toHaveCount(0);
  await expect(chatLine(T, 'Грубая строчка')).toHaveCount(0);
  await request.post(apiUrl(livestreamsEndpoints.end, { id: streamId }), { headers: auth(host) });
});
