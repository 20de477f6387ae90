import { apiUrl as routeUrl } from '@kadr/contract/browser';
import { livestreamsEndpoints } from '@kadr/contract/livestreams/endpoints';
import { voiceEndpoints } from '@kadr/contract/voice/endpoints';
import { expect, test } from '@playwright/test';
import type { Page as EnginePage } from '../engines/driver.ts';
import { label, role, testId, text } from '../engines/target.ts';
import { api, groupOf, register, type Session, signedIn, socketAccepted } from './session.ts';
import { addDefaultRoute, alertsInPage, NO_WEBRTC, webkitPage, webrtcInPage } from './webkit-page.ts';

/**
 * Group voice chats and live streams with WebKit (WebKitGTK's MiniBrowser, e2e/engines/webkit-engine.ts) and
 * Chromium (Playwright), as webkit-call.e2e.ts does for calls. Debian's WebKitGTK 2.50 has no WebRTC (no
 * `RTCPeerConnection`, webkit-call.e2e.ts says why), so what is checked is what the app tells the WebKit user:
 * a clear Russian message before anything is asked of the server. Before, a voice chat failed after the join
 * with livekit-client's English («Ошибка при подключении к голосовому чату: LiveKit doesn't seem to be supported
 * on this browser…»), and a live stream (watched, or started: the stream was made) sat at «Подключение к эфиру
 * потеряно», retrying for ever. If a WebKitGTK with WebRTC comes, the first check fails: then these become real
 * media tests, as firefox-media.e2e.ts.
 */

test.describe.configure({ timeout: 180_000 });

const DESKTOP = { width: 1440, height: 900 };
const VOICE_UNSUPPORTED =
  'Этот браузер не поддерживает голосовые чаты (в нём нет WebRTC). Откройте Kadr в другом браузере';
const WATCH_UNSUPPORTED =
  'Этот браузер не может показать эфир (в нём нет WebRTC). Откройте Kadr в другом браузере';
const HOST_UNSUPPORTED =
  'Этот браузер не может вести эфир (в нём нет WebRTC). Откройте Kadr в другом браузере';

/** The evidence, checked in every test: this WebKitGTK has no RTCPeerConnection, with every WebRTC setting on. */
async function expectNoWebRtc(webkit: EnginePage) {
  expect(
    await webkit.evaluate(webrtcInPage),
    'WebKitGTK with WebRTC: make this real media (see firefox-media.e2e.ts)',
  ).toMatchObject(NO_WEBRTC);
}

/** Waits for `message` among the page's alerts; the failure says which alerts were there instead. */
async function expectAlert(webkit: EnginePage, message: string) {
  let seen: string[] = [];
  await webkit
    .until(`the alert «${message}»`, async () => {
      seen = await webkit.evaluate(alertsInPage);
      return seen.includes(message);
    })
    .catch((err: Error) => {
      throw new Error(`${err.message}; alerts: ${JSON.stringify(seen)}`);
    });
}

/** Runs `run` with a Chromium page signed in as `chromiumUser` and a WebKit opener; closes both after. */
async function withWebKit(
  browser: Parameters<typeof signedIn>[0],
  chromiumUser: Session,
  run: (
    openWebKit: (session: Session, path: string) => Promise<EnginePage>,
    chromium: import('@playwright/test').Page,
  ) => Promise<void>,
) {
  const context = await signedIn(browser, chromiumUser, DESKTOP);
  const dropRoute = addDefaultRoute();
  let webkit: EnginePage | null = null;
  try {
    const chromium = await context.newPage();
    await run(async (session, path) => {
      webkit = await webkitPage(session, path);
      await expectNoWebRtc(webkit);
      return webkit;
    }, chromium);
  } finally {
    // Never in place of the failure itself.
    await (webkit as EnginePage | null)?.close().catch(() => undefined);
    await context.close().catch(() => undefined);
    dropRoute();
  }
}

test('group voice chat: WebKit cannot start one nor join Chromium in one, and says so; nothing is asked of the server', async ({
  browser,
}) => {
  const [c, w] = await Promise.all([
    register('wkvoice', 'Хрисанф Хромов'),
    register('wkvoice', 'Вера Вебкитова'),
  ]);
  const group = await groupOf(c, 'Два движка', [w]);
  const voiceNow = () =>
    api<{ participants: { user_id: number }[] } | null>(
      w,
      'GET',
      routeUrl(voiceEndpoints.get, { id: group.id }),
    );
  await withWebKit(browser, c, async (openWebKit, chromium) => {
    const webkit = await openWebKit(w, '/messenger');
    await webkit.click(text(group.name, testId('chat-row')));

    // (a) Starting one: the notice, no panel, and no voice chat on the server (before: one was started, then left).
    await webkit.click(role('button', 'Начать голосовой чат'));
    await expectAlert(webkit, VOICE_UNSUPPORTED);
    expect(await webkit.count(testId('voice-panel'))).toBe(0);
    expect(await voiceNow()).toBeNull();
    await webkit.click(role('button', 'Закрыть', testId('voice-notice')));
    await webkit.waitGone(testId('voice-notice'));

    // (b) Joining Chromium's: the same notice; Chromium stays alone in it, on the server and on its screen.
    const socketUp = socketAccepted(chromium);
    await chromium.goto('/messenger');
    await socketUp;
    await chromium.getByTestId('chat-row').filter({ hasText: group.name }).click();
    await chromium.getByRole('button', { name: 'Начать голосовой чат' }).click();
    await expect(chromium.getByTestId('voice-panel')).toHaveAttribute('data-state', 'connected', {
      timeout: 60_000,
    });
    const bar = testId('group-voice-bar');
    await webkit.waitFor(bar, 60_000);
    await webkit.click(role('button', 'Присоединиться', bar));
    await expectAlert(webkit, VOICE_UNSUPPORTED);
    expect(await webkit.count(testId('voice-panel'))).toBe(0);
    expect((await voiceNow())?.participants.map((p) => p.user_id)).toEqual([c.user.id]);
    await expect(chromium.getByTestId('voice-participant')).toHaveCount(1);
    // The group's chat is still there to use.
    await webkit.fill(role('textbox', 'Сообщение'), 'Я из WebKit, без звука');
    await webkit.click(role('button', 'Отправить'));
    await expect(chromium.getByTestId('message').getByText('Я из WebKit, без звука')).toBeVisible({
      timeout: 30_000,
    });
  });
});

test('live stream: Chromium hosts, WebKit opens it: the message instead of the picture, the chat still works', async ({
  browser,
}) => {
  const [c, w] = await Promise.all([
    register('wklive', 'Хрисанф Хромов'),
    register('wklive', 'Вера Вебкитова'),
  ]);
  await withWebKit(browser, c, async (openWebKit, chromium) => {
    await chromium.goto('/live/new');
    await chromium.getByLabel('Название эфира').fill('Эфир для WebKit');
    await chromium.getByRole('button', { name: 'Начать эфир' }).click();
    await expect(chromium).toHaveURL(/\/live\/\d+$/, { timeout: 60_000 });
    await expect(chromium.getByTestId('live-screen')).toHaveAttribute('data-role', 'host', {
      timeout: 60_000,
    });
    const streamId = Number(new URL(chromium.url()).pathname.split('/').pop());
    await chromium.getByRole('textbox', { name: 'Сообщение' }).fill('Привет всем');
    await chromium.getByRole('textbox', { name: 'Сообщение' }).press('Enter');
    await expect(chromium.getByTestId('live-chat').getByText('Привет всем')).toBeVisible({ timeout: 30_000 });

    const webkit = await openWebKit(w, `/live/${streamId}`);
    await expectAlert(webkit, WATCH_UNSUPPORTED);
    // Not «Подключение к эфиру потеряно» (before: shown for ever while it retried), and no media role.
    expect(await webkit.evaluate(alertsInPage)).toEqual([WATCH_UNSUPPORTED]);
    expect(await webkit.attribute(testId('live-screen'), 'data-role')).toBe('');
    // The chat: the history, and a line each way.
    await webkit.waitForText('Привет всем', 30_000);
    await webkit.fill(role('textbox', 'Сообщение'), 'Вижу только чат');
    await webkit.press('Enter');
    await expect(chromium.getByTestId('live-chat').getByText('Вижу только чат')).toBeVisible({
      timeout: 30_000,
    });
    // WebKit is no viewer in the media room: the host's count stays at 0.
    await expect(chromium.getByTestId('live-viewer-count')).toHaveText(/0/);

    await chromium.getByRole('button', { name: 'Завершить эфир' }).click();
    await webkit.waitFor(testId('live-ended'), 30_000);
  });
});

test('live stream: WebKit cannot start one, says so, opens no camera, and makes no stream', async ({
  browser,
}) => {
  const [c, w] = await Promise.all([
    register('wklive', 'Хрисанф Хромов'),
    register('wklive', 'Вера Вебкитова'),
  ]);
  await withWebKit(browser, c, async (openWebKit) => {
    const webkit = await openWebKit(w, '/live/new');
    await expectAlert(webkit, HOST_UNSUPPORTED);
    await webkit.fill(label(/^Название эфира/), 'Эфир из WebKit');
    expect(await webkit.attribute(role('button', 'Начать эфир'), 'disabled')).not.toBeNull();
    await webkit.press('Enter');
    // No stream was made (before: it was, and its host screen sat at «Подключение к эфиру потеряно»).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await webkit.path()).toBe('/live/new');
    const active = await api<{ streams: { user_id: number }[] }>(
      w,
      'GET',
      routeUrl(livestreamsEndpoints.active),
    );
    expect(active.streams.filter((s) => s.user_id === w.user.id)).toEqual([]);
    // No camera was opened for the preview.
    expect(
      await webkit.evaluate(() => {
        const video = document.querySelector('[data-testid="live-starter"] video') as HTMLVideoElement | null;
        return video?.srcObject ?? null;
      }),
    ).toBeNull();
  });
});
