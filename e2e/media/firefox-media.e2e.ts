import { apiUrl as routeUrl } from '@kadr/contract/browser';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { signIn } from '../engines/api.ts';
import { Page as EnginePage } from '../engines/driver.ts';
import { FIREFOX_CALL_PREFS, launchFirefox } from '../engines/puppeteer-engine.ts';
import { css, label, role, testId, text } from '../engines/target.ts';
import { type Browser, expect, type Page, test } from '../test.ts';
import { fakeVoiceWav } from './fake-voice.ts';
import { allowSound, audioPacketsFrom, livePageInit } from './live-probes.ts';
import { expectPlaying, MEDIA_WITHIN_MS, videoPicture } from './picture.ts';
import { api, env, groupOf, register, type Session, signedIn, socketAccepted } from './session.ts';
import { chromiumArgs, chromiumPath } from './stack.ts';

/**
 * A live stream (both ways) and a group voice chat between Chromium (Playwright) and Firefox ESR (puppeteer
 * over WebDriver BiDi, e2e/engines/puppeteer-engine.ts) through the real web app and the loopback LiveKit, as
 * firefox-call.e2e.ts does for a call. Firefox gets FIREFOX_CALL_PREFS here too: without a camera/microphone
 * permission it gathers no ICE candidate in the loopback namespace (docs/PITFALLS.md, «Firefox and WebKit»).
 * That holds for a viewer, who captures nothing (it stays at «Подключение к эфиру потеряно»), and for a voice
 * chat, whose receiving connection is made before the microphone starts («Ошибка при подключении к голосовому
 * чату: could not establish pc connection»).
 */

test.describe.configure({ timeout: 180_000 });
// Chromium's fake microphone talks (fake-voice.ts), so LiveKit counts its user as speaking.
test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${fakeVoiceWav()}`],
  },
});

const LIVE_VIDEO = '[data-testid="live-video"]';
const DESKTOP = { width: 1440, height: 900 };

/**
 * Runs `run` with a Chromium page signed in as `chromiumUser` (with live-probes.ts's init script) and a way to
 * open Firefox pages (FIREFOX_CALL_PREFS) signed in at a path; closes both after, never in place of a failure.
 */
async function withFirefox(
  browser: Browser,
  chromiumUser: Session,
  run: (fox: FoxOpener, chromium: Page) => Promise<void>,
) {
  const context = await signedIn(browser, chromiumUser, DESKTOP);
  await context.addInitScript(livePageInit);
  const firefox = await launchFirefox(FIREFOX_CALL_PREFS);
  try {
    const chromium = await context.newPage();
    await run(async (session, path) => {
      const fox = new EnginePage('firefox', await firefox.newPage(), env('KADR_MEDIA_API_URL'));
      await signIn(fox, session, path);
      return fox;
    }, chromium);
  } finally {
    await firefox.close().catch(() => undefined);
    await context.close().catch(() => undefined);
  }
}

type FoxOpener = (session: Session, path: string) => Promise<EnginePage>;

/**
 * In the page (sent as source): inbound-rtp audio packets from `identity` in the live room the app exposes
 * when window.__kadrE2E is set (use-live-session.ts); the same count as live-probes.ts's audioPacketsFrom.
 */
function liveAudioPackets(identity: string) {
  const w = window as unknown as {
    __kadrLive?: {
      room: {
        livekitRoom: {
          remoteParticipants: Map<
            string,
            { audioTrackPublications: Map<string, { track?: { receiver?: RTCRtpReceiver } }> }
          >;
        };
      };
    };
  };
  const participant = w.__kadrLive?.room.livekitRoom.remoteParticipants.get(identity);
  return Promise.all(
    Array.from(participant?.audioTrackPublications.values() ?? []).map(async (pub) => {
      let packets = 0;
      (await pub.track?.receiver?.getStats())?.forEach((s: { type: string; packetsReceived?: number }) => {
        if (s.type === 'inbound-rtp') packets += s.packetsReceived ?? 0;
      });
      return packets;
    }),
  ).then((all) => all.reduce((a, b) => a + b, 0));
}

/** In the page (sent as source): how many of the live screen's <audio> elements are playing. */
function liveAudioPlaying() {
  return Array.from(document.querySelectorAll<HTMLAudioElement>('[data-testid="live-audio"] audio')).filter(
    (audio) => !audio.paused && audio.currentTime > 0,
  ).length;
}

/** Firefox's «Включить звук» (§8 autoplay prompt), clicked if the engine blocked sound. */
async function allowSoundFox(fox: EnginePage) {
  const button = role('button', 'Включить звук');
  if ((await fox.count(button)) === 0) return;
  try {
    await fox.click(button);
    console.log('Firefox viewer: «Включить звук» shown, clicked');
  } catch (error) {
    // The prompt can go between the look and the click: Firefox may start the sound by itself once playback
    // begins. Gone is allowed; still there but unclickable fails. The sound itself is checked next.
    if ((await fox.count(button)) > 0) throw error;
    console.log('Firefox viewer: «Включить звук» went away by itself');
  }
}

test('live stream: Chromium hosts, Firefox watches (moving picture, sound)', async ({ browser }) => {
  const host = await register('fflive', 'Хрисанф Хромов');
  const viewer = await register('fflive', 'Фаина Лисицына');
  // The viewer follows the host: the stream shows in the home strip, and the viewer opens it from there.
  await api(viewer, 'POST', routeUrl(profileEndpoints.follow, { username: host.user.username }));
  await withFirefox(browser, host, async (openFox, chromium) => {
    await chromium.goto('/live/new');
    await chromium.getByLabel('Название эфира').fill('Эфир для Firefox');
    await chromium.getByRole('button', { name: 'Начать эфир' }).click();
    await expect(chromium).toHaveURL(/\/live\/\d+$/, { timeout: MEDIA_WITHIN_MS });
    await expect(chromium.getByTestId('live-screen')).toHaveAttribute('data-role', 'host', {
      timeout: MEDIA_WITHIN_MS,
    });

    const fox = await openFox(viewer, '/home');
    // The app exposes its live room to the test (window.__kadrLive) when this is set before the room is made:
    // set in the page, then a client-side navigation through the strip keeps it.
    await fox.waitFor(role('link', `Эфир: ${host.user.name}`), 60_000);
    await fox.evaluate(() => {
      (window as unknown as { __kadrE2E: boolean }).__kadrE2E = true;
    });
    await fox.click(role('link', `Эфир: ${host.user.name}`));
    await fox.waitForAttribute(testId('live-screen'), 'data-role', 'viewer', 60_000);
    await allowSoundFox(fox);
    await expectPlaying(() => fox.evaluate(videoPicture, LIVE_VIDEO), 'Firefox viewer');
    const identity = `user-${host.user.id}`;
    await expect
      .poll(() => fox.evaluate(liveAudioPackets, identity), { timeout: MEDIA_WITHIN_MS })
      .toBeGreaterThan(0);
    const packets = await fox.evaluate(liveAudioPackets, identity);
    await expect.poll(() => fox.evaluate(liveAudioPackets, identity)).toBeGreaterThan(packets);
    // And plays it: the page may play sound (the permission FIREFOX_CALL_PREFS gives allows autoplay too).
    await expect.poll(() => fox.evaluate(liveAudioPlaying)).toBeGreaterThan(0);
    await expect(chromium.getByTestId('live-viewer-count')).toHaveText(/1/, { timeout: MEDIA_WITHIN_MS });

    await chromium.getByRole('button', { name: 'Завершить эфир' }).click();
    await fox.waitFor(testId('live-ended'), 20_000);
  });
});

test('live stream: Firefox hosts, Chromium watches (moving picture, sound)', async ({ browser }) => {
  const host = await register('fflive', 'Фаина Лисицына');
  const viewer = await register('fflive', 'Хрисанф Хромов');
  await withFirefox(browser, viewer, async (openFox, chromium) => {
    const fox = await openFox(host, '/live/new');
    // The label holds the counter too («Название эфира0 из 100»).
    await fox.fill(label(/^Название эфира/), 'Эфир из Firefox');
    await fox.click(role('button', 'Начать эфир'));
    await fox.waitForPath(/\/live\/\d+$/, MEDIA_WITHIN_MS);
    await fox.waitForAttribute(testId('live-screen'), 'data-role', 'host', MEDIA_WITHIN_MS);
    const streamId = Number((await fox.path()).split('/').pop());

    await chromium.goto(`/live/${streamId}`);
    await expect(chromium.getByTestId('live-screen')).toHaveAttribute('data-role', 'viewer', {
      timeout: 60_000,
    });
    await allowSound(chromium);
    await expectPlaying(() => chromium.evaluate(videoPicture, LIVE_VIDEO), 'Chromium viewer');
    const identity = `user-${host.user.id}`;
    await expect
      .poll(() => audioPacketsFrom(chromium, identity), { timeout: MEDIA_WITHIN_MS })
      .toBeGreaterThan(0);
    const packets = await audioPacketsFrom(chromium, identity);
    await expect.poll(() => audioPacketsFrom(chromium, identity)).toBeGreaterThan(packets);
    await fox.until(
      'one viewer',
      async () => /1/.test((await fox.textOf(testId('live-viewer-count'))) ?? ''),
      MEDIA_WITHIN_MS,
    );

    await fox.click(role('button', 'Завершить эфир'));
    await expect(chromium.getByTestId('live-ended')).toBeVisible({ timeout: 20_000 });
  });
});

test('group voice chat: a Chromium member and a Firefox member see and hear each other', async ({
  browser,
}) => {
  const [c, f] = await Promise.all([
    register('ffvoice', 'Хрисанф Хромов'),
    register('ffvoice', 'Фаина Лисицына'),
  ]);
  const group = await groupOf(c, 'Два браузера', [f]);
  await withFirefox(browser, c, async (openFox, chromium) => {
    const socketUp = socketAccepted(chromium);
    await chromium.goto('/messenger');
    await socketUp;
    await chromium.getByTestId('chat-row').filter({ hasText: group.name }).click();
    await chromium.getByRole('button', { name: 'Начать голосовой чат' }).click();
    const panel = chromium.getByTestId('voice-panel');
    await expect(panel).toHaveAttribute('data-state', 'connected', { timeout: 60_000 });

    const fox = await openFox(f, '/messenger');
    await fox.click(text(group.name, testId('chat-row')));
    const bar = testId('group-voice-bar');
    await fox.waitFor(bar, 60_000);
    await fox.click(role('button', 'Присоединиться', bar));
    await fox.waitForAttribute(testId('voice-panel'), 'data-state', 'connected', 60_000);

    // Each lists both.
    await expect(chromium.getByTestId('voice-participant')).toHaveCount(2, { timeout: 30_000 });
    await fox.until('two participants', async () => (await fox.count(testId('voice-participant'))) === 2);

    // Each receives the other's audio: the app's received-bytes counter passes 1000 and keeps growing.
    const chromiumRow = chromium.locator(`[data-testid="voice-participant"][data-user-id="${f.user.id}"]`);
    const atChromium = async () => Number(await chromiumRow.getAttribute('data-inbound-bytes'));
    const foxRow = css(`[data-testid="voice-participant"][data-user-id="${c.user.id}"]`);
    const atFirefox = async () => Number(await fox.attribute(foxRow, 'data-inbound-bytes'));
    for (const [read, who] of [
      [atChromium, 'Chromium hears Firefox'],
      [atFirefox, 'Firefox hears Chromium'],
    ] as const) {
      await expect.poll(read, { timeout: 60_000, message: who }).toBeGreaterThan(1000);
      const before = await read();
      await expect.poll(read, { timeout: 30_000, message: who }).toBeGreaterThan(before);
      console.log(`${who}: ${await read()} bytes`);
    }
    // Who is speaking (LiveKit's active speakers), both ways: Chromium's fake microphone talks
    // (fake-voice.ts), Firefox's fake one plays a steady tone, which LiveKit counts as speech too.
    await fox.waitForAttribute(foxRow, 'data-speaking', 'true', 30_000);
    expect(await fox.textOf(testId('voice-speaking', foxRow))).toBe('говорит');
    await expect(chromiumRow).toHaveAttribute('data-speaking', 'true', { timeout: 30_000 });
    await expect(chromiumRow.getByTestId('voice-speaking')).toHaveText('говорит');

    // Firefox leaves: Chromium's list follows.
    await fox.click(role('button', 'Выйти', testId('voice-panel')));
    await expect(chromium.getByTestId('voice-participant')).toHaveCount(1, { timeout: 30_000 });
  });
});
