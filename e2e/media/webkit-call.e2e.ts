import { apiUrl as routeUrl } from '@kadr/contract/browser';
import { callsEndpoints } from '@kadr/contract/calls/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import type { Page as EnginePage } from '../engines/driver.ts';
import { role, testId } from '../engines/target.ts';
import { type Browser, expect, type Page, test } from '../test.ts';
import { api, register, type Session, signedIn, socketAccepted } from './session.ts';
import { addDefaultRoute, NO_WEBRTC, WEBKIT_CALL_ARGS, webkitPage, webrtcInPage } from './webkit-page.ts';

/**
 * Calls with WebKit (WebKitGTK's MiniBrowser through WebKitWebDriver, e2e/engines/webkit-engine.ts) and
 * Chromium (Playwright). Debian's WebKitGTK 2.50 is a release build, and WebKitGTK's release builds leave
 * WebRTC out (`ENABLE_WEB_RTC` follows `ENABLE_EXPERIMENTAL_FEATURES` in OptionsGTK.cmake): the page has no
 * `RTCPeerConnection` even with the `enable-webrtc` setting on, so no call can connect. What is checked is what
 * the app says to the WebKit user instead: a clear message, the peer not rung for nothing. If a WebKitGTK with
 * WebRTC comes, the first check fails: then this becomes a real call, as e2e/media/firefox-call.e2e.ts.
 */

test.describe.configure({ timeout: 180_000 });

const UNSUPPORTED = 'Этот браузер не поддерживает звонки (в нём нет WebRTC). Откройте Kadr в другом браузере';

/**
 * A WebKit user and a Chromium user, each with the other's chat open (the Chromium user's socket up, the WebKit
 * page signed in), `follower` following the other so presence («онлайн») shows there; runs `steps`, then closes
 * both and takes the namespace's default route away again.
 */
async function chatPair(
  browser: Browser,
  follower: 'webkit' | 'chromium',
  steps: (pages: { webkit: EnginePage; chromium: Page; w: Session; c: Session }) => Promise<void>,
) {
  const w = await register('wkcall', 'Вера Вебкитова');
  const c = await register('wkcall', 'Хрисанф Хромов');
  const [from, to] = follower === 'webkit' ? [w, c] : [c, w];
  await api(from, 'POST', routeUrl(profileEndpoints.follow, { username: to.user.username }));
  const context = await signedIn(browser, c, { width: 1440, height: 900 });
  const dropRoute = addDefaultRoute();
  let webkit: EnginePage | null = null;
  try {
    const chromium = await context.newPage();
    const socketUp = socketAccepted(chromium);
    await chromium.goto(`/messenger/${w.user.username}`);
    await socketUp;
    webkit = await webkitPage(w, `/messenger/${c.user.username}`);
    await steps({ webkit, chromium, w, c });
  } finally {
    // Never in place of the failure itself.
    await webkit?.close().catch(() => undefined);
    await context.close().catch(() => undefined);
    dropRoute();
  }
}

test('WebKit presses «Видеозвонок»: no WebRTC, the app says so and does not ring Chromium', ({ browser }) =>
  chatPair(browser, 'webkit', async ({ webkit, chromium, w, c }) => {
    // The evidence: WebKitGTK here has no RTCPeerConnection, with every WebRTC setting on.
    const found = await webkit.evaluate(webrtcInPage);
    console.log(`WebKit's WebRTC (${WEBKIT_CALL_ARGS.join(' ')}): ${JSON.stringify(found)}`);
    expect(found, 'WebKitGTK with WebRTC: make this a real call (see firefox-call.e2e.ts)').toMatchObject(
      NO_WEBRTC,
    );

    await webkit.waitForText('онлайн', 60_000);
    await webkit.click(role('button', 'Видеозвонок'));
    await webkit.waitFor(role('alert', `Ошибка звонка: ${UNSUPPORTED}`));
    expect(await webkit.count(testId('call-window'))).toBe(0);
    // Nobody was rung: no call on the server, no modal at the Chromium user's.
    expect((await api<{ call: unknown }>(c, 'GET', routeUrl(callsEndpoints.current))).call).toBeNull();
    expect((await api<{ call: unknown }>(w, 'GET', routeUrl(callsEndpoints.current))).call).toBeNull();
    await expect(chromium.getByTestId('incoming-call')).toHaveCount(0);
  }));

test('Chromium calls WebKit: the modal says WebKit cannot answer, offers «Отклонить», Chromium sees it', ({
  browser,
}) =>
  chatPair(browser, 'chromium', async ({ webkit, chromium }) => {
    await expect(chromium.getByText('онлайн').first()).toBeVisible({ timeout: 60_000 });
    await chromium.getByRole('button', { name: 'Видеозвонок' }).click();
    const modal = testId('incoming-call');
    await webkit.waitFor(modal, 60_000);
    expect(await webkit.textOf(role('note', undefined, modal))).toBe(UNSUPPORTED);
    expect(await webkit.count(role('button', 'Ответить с видео', modal))).toBe(0);
    expect(await webkit.count(role('button', 'Ответить без видео', modal))).toBe(0);
    await webkit.click(role('button', 'Отклонить', modal));
    await webkit.waitGone(modal);
    await expect(chromium.getByTestId('call-window')).toHaveAttribute('data-state', 'rejected');
  }));
