import { apiUrl as routeUrl } from '@kadr/contract/browser';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { signIn } from '../engines/api.ts';
import { Page as EnginePage } from '../engines/driver.ts';
import { FIREFOX_CALL_PREFS, launchFirefox } from '../engines/puppeteer-engine.ts';
import { role, testId } from '../engines/target.ts';
import { type Browser, expect, type Page, test } from '../test.ts';
import { expectPlaying, videoPicture } from './picture.ts';
import { api, env, register, signedIn, socketAccepted } from './session.ts';

/**
 * A video call between two engines through the real web app and the loopback LiveKit: Firefox ESR calls
 * (puppeteer over WebDriver BiDi, e2e/engines/puppeteer-engine.ts), Chromium answers (Playwright). Firefox
 * gathers no ICE candidate at all in the loopback namespace unless the page may use the camera or microphone
 * (docs/PITFALLS.md, «Firefox and WebKit»): FIREFOX_CALL_PREFS allows both for every site.
 */

test.describe.configure({ timeout: 180_000 });

/** The peer's picture in the call window. */
const REMOTE_VIDEO = '[data-testid="remote-video"]';

/**
 * One video call between a Firefox user and a Chromium user, `firefoxCalls` saying who presses «Видеозвонок»:
 * both windows become active, each shows the other's moving picture, the caller hangs up.
 */
async function call(browser: Browser, firefoxCalls: boolean) {
  const f = await register('ffcall', 'Фаина Лисицына');
  const c = await register('ffcall', 'Хрисанф Хромов');
  const [caller, callee] = firefoxCalls ? [f, c] : [c, f];
  // Presence («онлайн») is shown to followers: the caller sees when the callee's socket is up (it will ring).
  await api(caller, 'POST', routeUrl(profileEndpoints.follow, { username: callee.user.username }));

  const context = await signedIn(browser, c, { width: 1440, height: 900 });
  const firefox = await launchFirefox(FIREFOX_CALL_PREFS);
  try {
    const chromium: Page = await context.newPage();
    const socketUp = socketAccepted(chromium);
    await chromium.goto(`/messenger/${f.user.username}`);
    await socketUp;
    const fox = new EnginePage('firefox', await firefox.newPage(), env('KADR_MEDIA_API_URL'));
    await signIn(fox, f, `/messenger/${c.user.username}`);

    if (firefoxCalls) {
      await fox.waitForText('онлайн');
      await fox.click(role('button', 'Видеозвонок'));
      await expect(chromium.getByTestId('incoming-call')).toBeVisible({ timeout: 60_000 });
      await chromium.getByRole('button', { name: 'Ответить с видео' }).click();
    } else {
      await expect(chromium.getByText('онлайн').first()).toBeVisible({ timeout: 60_000 });
      await chromium.getByRole('button', { name: 'Видеозвонок' }).click();
      await fox.waitFor(testId('incoming-call'), 60_000);
      await fox.click(role('button', 'Ответить с видео', testId('incoming-call')));
    }

    await Promise.all([
      fox.waitForAttribute(testId('call-window'), 'data-state', 'active', 60_000),
      expect(chromium.getByTestId('call-window')).toHaveAttribute('data-state', 'active', {
        timeout: 60_000,
      }),
    ]);
    await Promise.all([
      expectPlaying(() => fox.evaluate(videoPicture, REMOTE_VIDEO), 'Firefox'),
      expectPlaying(() => chromium.evaluate(videoPicture, REMOTE_VIDEO), 'Chromium'),
    ]);
    // The app's own counter of frames decoded from the peer grows in Firefox too.
    const frames = async () => Number(await fox.attribute(testId('call-stats'), 'data-video-frames'));
    const before = await frames();
    await expect.poll(frames).toBeGreaterThan(before);

    // The caller hangs up; the other side is told.
    if (firefoxCalls) {
      await fox.click(role('button', 'Завершить'));
      await expect(chromium.getByTestId('call-window')).toHaveAttribute('data-state', 'ended');
    } else {
      await chromium.getByRole('button', { name: 'Завершить' }).click();
      await fox.waitForAttribute(testId('call-window'), 'data-state', 'ended');
    }
  } finally {
    // Never in place of the failure itself.
    await firefox.close().catch(() => undefined);
    await context.close().catch(() => undefined);
  }
}

test('Firefox calls Chromium: both active, each decodes the other', ({ browser }) => call(browser, true));
test('Chromium calls Firefox: both active, each decodes the other', ({ browser }) => call(browser, false));
