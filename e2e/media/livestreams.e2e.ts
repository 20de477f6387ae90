import fs from 'node:fs';
import path from 'node:path';
import { apiUrl as routeUrl } from '@kadr/contract/browser';
import { livestreamsEndpoints } from '@kadr/contract/livestreams/endpoints';
import { profileEndpoints } from '@kadr/contract/profile/endpoints';
import { type Browser, type BrowserContext, chromium, expect, type Page, test } from '@playwright/test';
import { RoomServiceClient, TrackSource } from 'livekit-server-sdk';
import {
  allowSound,
  audioPacketsFrom,
  clickedAt,
  livePageInit,
  requestTimes,
  watchAppearance,
  watchAudioStop,
} from './live-probes.ts';
import { env, register, request, type Session, signedIn } from './session.ts';
import { chromiumArgs, chromiumPath } from './stack.ts';

/**
 * Live streams through the real web app, the real Kadr server and the real livekit-server, in Chromium
 * with fake camera and microphone, on loopback only. The stack here serves the built web app and ends
 * streams whose host is gone after a short timeout.
 */

const SHOTS = '/tmp/shots/live';
/** Connecting (ICE) took 7–15 s on the loaded shared machine; media waits allow for that. */
const MEDIA_MS = 60_000;
/**
 * Event-driven changes (B's strip after A starts, a removed guest's audio at a viewer), measured on the wall
 * clock from the click that caused them to the moment the other page saw the change. The 2 s aims are
 * performance figures measured by `npm run bench -- live-events-media` (bench/livestreams-events.ts); here
 * the bound is a condition that still tells the realtime event from the 30 s poll (half its period), and the
 * figures are printed. `KADR_LIVE_EVENT_WITHIN_MS` overrides it.
 */
const EVENT_MS = Number(process.env.KADR_LIVE_EVENT_WITHIN_MS ?? 15_000);

type Member = Session;

const stack = {
  get apiUrl() {
    return env('KADR_MEDIA_API_URL');
  },
  get livekitUrl() {
    return env('KADR_MEDIA_LIVEKIT_URL');
  },
  get apiKey() {
    return env('KADR_MEDIA_API_KEY');
  },
  get apiSecret() {
    return env('KADR_MEDIA_API_SECRET');
  },
};
let browser: Browser;
const contexts: BrowserContext[] = [];

async function call(member: Member, method: string, url: string, body?: unknown) {
  const res = await request(member, method, url, body);
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

/** A signed-in tab of the app; the flag lets the test reach the media room (window.__kadrLive). */
async function open(member: Member, viewport = { width: 390, height: 844 }): Promise<Page> {
  const context = await signedIn(browser, member, viewport);
  contexts.push(context);
  await context.addInitScript(livePageInit);
  return context.newPage();
}

function videoWidth(page: Page): Promise<number> {
  return page.getByTestId('live-video').evaluate((v) => (v as HTMLVideoElement).videoWidth);
}

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize();
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(viewport);
    await page.evaluate(
      // Two frames: the layout at the new size has been painted before the picture.
      () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
    );
    await page.screenshot({ path: path.join(SHOTS, `${name}-${viewport.width}x${viewport.height}.png`) });
  }
  if (size) await page.setViewportSize(size);
}

test.beforeAll(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});

test.afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
});

test('live stream: start, watch, chat, guests, end, and the host gone', async () => {
  test.setTimeout(600_000);
  const a = await register('host', 'Анна Хост');
  const b = await register('viewer_b', 'Борис Зритель');
  const c = await register('viewer_c', 'Вера Поздняя');
  const extras = await Promise.all([1, 2, 3, 4, 5].map((i) => register(`extra${i}`, `Гость ${i}`)));
  expect(
    (await call(b, 'POST', routeUrl(profileEndpoints.follow, { username: a.user.username }))).status,
  ).toBe(200);
  const rooms = new RoomServiceClient(
    stack.livekitUrl.replace('ws://', 'http://'),
    stack.apiKey,
    stack.apiSecret,
  );

  // B waits on the home page, so the strip must change through the event, not the 30 s poll.
  const pageB = await open(b);
  await pageB.goto('/home');
  await expect(pageB.getByRole('heading', { name: 'Главная', exact: true })).toBeVisible();
  await expect(pageB.getByTestId('live-strip')).toHaveCount(0);

  // A: create chooser → live starter → camera preview, title with counter → start.
  const pageA = await open(a);
  await pageA.goto('/home');
  // The page's own «Создать» (the stories strip's «Добавить историю» comes first in the page now).
  await pageA.getByRole('button', { name: 'Создать', exact: true }).click();
  await pageA.getByRole('button', { name: 'Прямой эфир' }).click();
  await expect(pageA).toHaveURL(/\/live\/new$/);
  await pageA.getByLabel('Название эфира').fill('Вечерний эфир');
  await expect(pageA.getByText('13 из 100')).toBeVisible();
  await expect(pageA.getByRole('button', { name: 'Начать эфир' })).toBeEnabled();
  await shot(pageA, 'starter');
  const stripEntryAt = await watchAppearance(pageB, `a[aria-label="Эфир: ${a.user.name}"]`);
  await pageA.getByRole('button', { name: 'Начать эфир' }).click();
  const startClickAt = await clickedAt(pageA);
  await expect(pageA).toHaveURL(/\/live\/\d+$/);
  const streamId = Number(new URL(pageA.url()).pathname.split('/').pop());

  // B's strip shows A through the event, not the 30 s poll: within EVENT_MS of A's click.
  const entry = pageB.getByRole('link', { name: `Эфир: ${a.user.name}` });
  await expect(entry).toBeVisible({ timeout: EVENT_MS });
  const stripAt = await stripEntryAt();
  const stripMs = stripAt - startClickAt;
  // Where the time went: A's POST /livestreams, then B's refetch of the active list on the event.
  const since = (t: number) => `${t - startClickAt} ms`;
  const [created] = (await requestTimes(pageA, routeUrl(livestreamsEndpoints.create))).filter(
    (r) => r.start >= startClickAt,
  );
  const refetch = (await requestTimes(pageB, routeUrl(livestreamsEndpoints.active))).filter(
    (r) => r.start >= startClickAt,
  );
  console.log(
    `strip entry at B ${stripMs} ms after A's click on 'Начать эфир' (aim 2000 ms, measured by the bench): ` +
      `A's POST ${created ? `${since(created.start)}–${since(created.end)}` : 'not timed'}, ` +
      `B's refetch ${refetch.map((r) => `${since(r.start)}–${since(r.end)}`).join(', ') || 'none'}, shown ${since(stripAt)}`,
  );
  expect(stripMs).toBeLessThanOrEqual(EVENT_MS);

  // A publishes camera and microphone.
  await expect(pageA.getByTestId('live-screen')).toHaveAttribute('data-role', 'host', { timeout: MEDIA_MS });
  await expect.poll(() => videoWidth(pageA), { timeout: MEDIA_MS }).toBeGreaterThan(0);

  // B opens it: A's video decodes and A's audio arrives; A sees one viewer.
  await entry.click();
  await expect(pageB).toHaveURL(new RegExp(`/live/${streamId}$`));
  await expect(pageB.getByTestId('live-screen')).toHaveAttribute('data-role', 'viewer', {
    timeout: MEDIA_MS,
  });
  await allowSound(pageB);
  await expect.poll(() => videoWidth(pageB), { timeout: MEDIA_MS }).toBeGreaterThan(0);
  await expect
    .poll(() => audioPacketsFrom(pageB, `user-${a.user.id}`), { timeout: MEDIA_MS })
    .toBeGreaterThan(0);
  await expect(pageA.getByTestId('live-viewer-count')).toHaveText(/1/, { timeout: MEDIA_MS });
  // LiveKit advertises loopback only, although the namespace has a second interface (127.0.0.2).
  for (const page of [pageA, pageB]) {
    const candidates = await page.evaluate(() => window.__kadrRemoteCandidates ?? []);
    expect(candidates.length).toBeGreaterThan(0);
    expect(new Set(candidates.map((c) => c.split(' ')[4]))).toEqual(new Set(['127.0.0.1']));
  }

  // Chat both ways; Enter sends.
  const chatB = pageB.getByRole('textbox', { name: 'Сообщение' });
  await chatB.fill('Привет из зала');
  await chatB.press('Enter');
  await expect(pageA.getByTestId('live-chat')).toContainText('Привет из зала');
  const chatA = pageA.getByRole('textbox', { name: 'Сообщение' });
  await chatA.fill('Спасибо, что пришли');
  await chatA.press('Enter');
  await expect(pageB.getByTestId('live-chat')).toContainText('Спасибо, что пришли');
  // Each message once, though it came by the socket and the data channel.
  await expect(pageB.getByTestId('live-chat').getByText('Привет из зала')).toHaveCount(1);
  await expect(pageA.getByTestId('live-chat').getByText('Привет из зала')).toHaveCount(1);

  // C joins late and sees the earlier messages.
  const pageC = await open(c, { width: 1440, height: 900 });
  await pageC.goto(`/live/${streamId}`);
  await allowSound(pageC);
  await expect(pageC.getByTestId('live-chat')).toContainText('Привет из зала', { timeout: MEDIA_MS });
  await expect(pageC.getByTestId('live-chat')).toContainText('Спасибо, что пришли');
  await expect.poll(() => videoWidth(pageC), { timeout: MEDIA_MS }).toBeGreaterThan(0);
  await expect(pageA.getByTestId('live-viewer-count')).toHaveText(/2/, { timeout: MEDIA_MS });
  await shot(pageA, 'host');
  await shot(pageC, 'viewer');

  // A adds B as a guest through the search; B accepts and speaks; C hears B.
  const search = pageA.getByRole('searchbox', { name: 'Найти пользователя' });
  await search.fill(b.user.username);
  await pageA.getByRole('button', { name: `Добавить: ${b.user.name}` }).click();
  await expect(pageA.getByRole('list', { name: 'Гости' })).toContainText(b.user.name);
  await pageB.getByRole('button', { name: 'Включить микрофон' }).click();
  await expect(pageB.getByText('Вы в эфире с микрофоном')).toBeVisible({ timeout: MEDIA_MS });
  const identityB = `user-${b.user.id}`;
  await expect.poll(() => audioPacketsFrom(pageC, identityB), { timeout: MEDIA_MS }).toBeGreaterThan(0);

  // B's camera is refused by LiveKit itself, even with the client's own check skipped.
  const forced = await pageB.evaluate(async () => {
    const participant = window.__kadrLive?.room.livekitRoom.localParticipant;
    if (!participant) return 'no room';
    Object.assign(participant, { hasPermissionsToPublish: () => true });
    const attempt = participant.setCameraEnabled(true).then(
      () => 'published',
      (e: unknown) => `rejected: ${e instanceof Error ? e.message : String(e)}`,
    );
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 8000));
    return Promise.race([attempt, timeout]);
  });
  expect(forced).not.toBe('published');
  const listed = await rooms.listParticipants(`stream-${streamId}`);
  const guestInfo = listed.find((p) => p.identity === identityB);
  expect(guestInfo?.tracks.map((t) => t.source)).toEqual([TrackSource.MICROPHONE]);

  // A removes B: B's audio stops reaching C within EVENT_MS of A's click. Measured at C as the last time B's
  // received packet count grew before B's track left C's room (LiveKit stops forwarding first; the notice
  // that the track is gone can trail it on a loaded machine, and is printed too).
  const flowing = await audioPacketsFrom(pageC, identityB);
  await expect.poll(() => audioPacketsFrom(pageC, identityB), { timeout: MEDIA_MS }).toBeGreaterThan(flowing);
  const audioStop = await watchAudioStop(pageC, identityB);
  await pageA.getByRole('button', { name: `Убрать: ${b.user.name}` }).click();
  const removeClickAt = await clickedAt(pageA);
  await expect
    .poll(async () => (await audioStop()).goneAt, { timeout: MEDIA_MS, intervals: [100] })
    .toBeGreaterThan(0);
  const { lastPacketAt, goneAt } = await audioStop();
  console.log(
    `guest audio at the viewer: last packet ${lastPacketAt - removeClickAt} ms, track gone ${goneAt - removeClickAt} ms after A's click on 'Убрать' (aim 2000 ms, measured by the bench)`,
  );
  expect(lastPacketAt - removeClickAt).toBeLessThanOrEqual(EVENT_MS);
  expect(await audioPacketsFrom(pageC, identityB)).toBe(0);
  await expect(pageA.getByText('Пока нет гостей')).toBeVisible();

  // Five guests, then a sixth is refused with the exact text.
  for (const extra of extras.slice(0, 4)) {
    expect(
      (
        await call(a, 'POST', routeUrl(livestreamsEndpoints.addGuest, { id: streamId }), {
          user_id: extra.user.id,
        })
      ).status,
    ).toBe(201);
  }
  expect(
    (await call(a, 'POST', routeUrl(livestreamsEndpoints.addGuest, { id: streamId }), { user_id: c.user.id }))
      .status,
  ).toBe(201);
  await search.fill(extras[4]!.user.username);
  await pageA.getByRole('button', { name: `Добавить: ${extras[4]!.user.name}` }).click();
  await expect(
    pageA.getByRole('alert').filter({ hasText: 'Максимальное количество гостей: 5' }),
  ).toBeVisible();

  // A ends: B and C see the end; the strip entry goes.
  await pageA.getByRole('button', { name: 'Завершить эфир' }).click();
  await expect(pageB.getByTestId('live-ended')).toBeVisible({ timeout: 10_000 });
  await expect(pageC.getByTestId('live-ended')).toBeVisible({ timeout: 10_000 });
  await pageB.getByRole('button', { name: 'Закрыть' }).click();
  await expect(pageB).toHaveURL(/\/home$/);
  await expect(pageB.getByRole('link', { name: `Эфир: ${a.user.name}` })).toHaveCount(0);

  // A streams again and kills the tab: the stream ends by itself after the (shortened) timeout.
  const again = await call(a, 'POST', routeUrl(livestreamsEndpoints.create), { title: 'Второй' });
  expect(again.status).toBe(201);
  const secondId = (again.body as { id: number }).id;
  const pageA2 = await open(a);
  await pageA2.goto(`/live/${secondId}`);
  await expect.poll(() => videoWidth(pageA2), { timeout: MEDIA_MS }).toBeGreaterThan(0);
  await expect(pageB.getByRole('link', { name: `Эфир: ${a.user.name}` })).toBeVisible({ timeout: 5000 });
  await pageC.goto(`/live/${secondId}`);
  await expect.poll(() => videoWidth(pageC), { timeout: MEDIA_MS }).toBeGreaterThan(0);
  await pageA2.context().close();
  await expect(pageC.getByTestId('live-ended')).toBeVisible({ timeout: MEDIA_MS });
  await expect(pageB.getByRole('link', { name: `Эфир: ${a.user.name}` })).toHaveCount(0, { timeout: 5000 });
  expect((await call(c, 'GET', routeUrl(livestreamsEndpoints.get, { id: secondId }))).body).toMatchObject({
    status: 'ended',
  });
});

/** Video frames decoded from the stream's camera track by the current media room (0 when none). */
function videoFramesDecoded(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const room = window.__kadrLive?.room.livekitRoom;
    let frames = 0;
    for (const participant of room?.remoteParticipants.values() ?? []) {
      for (const pub of participant.videoTrackPublications.values()) {
        const receiver = (pub.track as { receiver?: RTCRtpReceiver } | undefined)?.receiver;
        const report = await receiver?.getStats();
        report?.forEach((s: { type: string; framesDecoded?: number }) => {
          if (s.type === 'inbound-rtp') frames += s.framesDecoded ?? 0;
        });
      }
    }
    return frames;
  });
}

/** Resolves with the number of frames the stage <video> presented within `ms` (stops at 5). */
function framesPresented(page: Page, ms: number): Promise<number> {
  return page.getByTestId('live-video').evaluate(
    (v, within) =>
      new Promise<number>((resolve) => {
        const video = v as HTMLVideoElement;
        let count = 0;
        const timer = setTimeout(() => resolve(count), within);
        const onFrame = () => {
          count += 1;
          if (count >= 5) {
            clearTimeout(timer);
            resolve(count);
          } else video.requestVideoFrameCallback(onFrame);
        };
        video.requestVideoFrameCallback(onFrame);
      }),
    ms,
  );
}

/**
 * Waits until the viewer's stage shows live video again after a drop: the banner is gone, the media room
 * decodes new frames of the host's camera and the <video> element presents them. Prints how long it took.
 */
async function expectVideoBack(page: Page, what: string, droppedAt: number) {
  const banner = page.getByRole('alert').filter({ hasText: 'Подключение к эфиру потеряно' });
  await expect(banner).toBeHidden({ timeout: MEDIA_MS });
  const hiddenAt = Date.now();
  const before = await videoFramesDecoded(page);
  await expect.poll(() => videoFramesDecoded(page), { timeout: MEDIA_MS }).toBeGreaterThan(before);
  await expect.poll(() => framesPresented(page, 5000), { timeout: MEDIA_MS }).toBeGreaterThanOrEqual(5);
  expect(await videoWidth(page)).toBeGreaterThan(0);
  console.log(
    `${what}: banner hidden ${hiddenAt - droppedAt} ms after the drop, new frames shown after ${Date.now() - droppedAt} ms`,
  );
}

test("live stream: a viewer's dropped connection comes back with video", async () => {
  test.setTimeout(600_000);
  const a = await register('rc_host', 'Анна Хост');
  const b = await register('rc_viewer', 'Борис Зритель');
  const rooms = new RoomServiceClient(
    stack.livekitUrl.replace('ws://', 'http://'),
    stack.apiKey,
    stack.apiSecret,
  );

  // Started from the starter, so the host connects at once (a stream whose host has not joined within
  // 30 s ends by itself, and a cold page took longer than that on the loaded machine).
  const pageA = await open(a);
  await pageA.goto('/live/new');
  await pageA.getByLabel('Название эфира').fill('Переподключение');
  await pageA.getByRole('button', { name: 'Начать эфир' }).click();
  await expect(pageA).toHaveURL(/\/live\/\d+$/, { timeout: MEDIA_MS });
  const streamId = Number(new URL(pageA.url()).pathname.split('/').pop());
  await expect(pageA.getByTestId('live-screen')).toHaveAttribute('data-role', 'host', { timeout: MEDIA_MS });
  await expect.poll(() => videoWidth(pageA), { timeout: MEDIA_MS }).toBeGreaterThan(0);
  const pageB = await open(b);
  await pageB.goto(`/live/${streamId}`);
  await expect(pageB.getByTestId('live-screen')).toHaveAttribute('data-role', 'viewer', {
    timeout: MEDIA_MS,
  });
  await expect.poll(() => videoWidth(pageB), { timeout: MEDIA_MS }).toBeGreaterThan(0);
  await expect.poll(() => videoFramesDecoded(pageB), { timeout: MEDIA_MS }).toBeGreaterThan(0);
  const banner = pageB.getByRole('alert').filter({ hasText: 'Подключение к эфиру потеряно' });
  await expect(banner).toBeHidden();

  // 1. The tab goes offline: the banner shows; back online, the video plays again and the banner goes.
  await pageB.context().setOffline(true);
  const offlineAt = Date.now();
  await expect(banner).toBeVisible({ timeout: MEDIA_MS });
  console.log(`offline: banner shown after ${Date.now() - offlineAt} ms`);
  await shot(pageB, 'viewer-reconnecting');
  await pageB.context().setOffline(false);
  await expectVideoBack(pageB, 'offline', offlineAt);

  // 2. LiveKit cuts the viewer's connection from its side (the participant is removed from the room):
  //    the app connects again on its own with a fresh token.
  const roomName = `stream-${streamId}`;
  const identityB = `user-${b.user.id}`;
  const roomBefore = await pageB.evaluate(() => window.__kadrLive?.room.livekitRoom.name ?? null);
  expect(roomBefore).toBe(roomName);
  await rooms.removeParticipant(roomName, identityB);
  const cutAt = Date.now();
  await expect(banner).toBeVisible({ timeout: MEDIA_MS });
  console.log(`server cut: banner shown after ${Date.now() - cutAt} ms`);
  await expectVideoBack(pageB, 'server cut', cutAt);
  const listed = await rooms.listParticipants(roomName);
  expect(listed.filter((p) => p.identity === identityB)).toHaveLength(1);
});
