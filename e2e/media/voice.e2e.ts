import fs from 'node:fs';
import { apiUrl as routeUrl } from '@kadr/contract/browser';
import { voiceEndpoints } from '@kadr/contract/voice/endpoints';
import { type Browser, expect, type Locator, type Page, test } from '../test.ts';
import { fakeVoiceWav } from './fake-voice.ts';
import { type PeerConnectionsWindow, TRACK_PEER_CONNECTIONS } from './peer-connections.ts';
import { groupOf, register, request, type Session, signedIn, socketAccepted } from './session.ts';
import { chromiumArgs, chromiumPath } from './stack.ts';

/**
 * Group voice chats through the real web app, the real Kadr server and the real livekit-server, in
 * Chromium with the fake microphone (npm run test:e2e:media): three members hear each other, the list
 * follows joins and leaves, ending for everyone makes the others leave, and an outsider gets no token.
 */

const SHOTS = process.env.KADR_SHOTS_DIR ?? '/tmp/shots/voice';
// Several browsers, the server and LiveKit share the machine: a flow takes minutes when it is loaded.
test.describe.configure({ timeout: 600_000 });
// Every fake microphone plays a sound that never goes quiet (the default one beeps 20 ms in 500, too
// little for LiveKit to count anyone as speaking).
test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--use-file-for-fake-audio-capture=${fakeVoiceWav()}`],
  },
});
/** Join → in the media room. LiveKit's connection setup took 10–60 s in these browsers at load average 60–75. */
const CONNECT_WITHIN_MS = Number(process.env.KADR_VOICE_CONNECT_WITHIN_MS ?? 60_000);
const DESKTOP = { width: 1440, height: 900 };
const MOBILE = { width: 390, height: 844 };

/** Signs in, opens the messenger, waits for the socket, and opens the group's chat. */
async function inGroup(browser: Browser, session: Session, group: string): Promise<Page> {
  const context = await signedIn(browser, session, DESKTOP);
  await context.addInitScript({ content: TRACK_PEER_CONNECTIONS });
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') console.log(`[${session.user.name}] ${msg.text()}`);
  });
  const socketUp = socketAccepted(page);
  await page.goto('/messenger');
  await socketUp;
  await page.getByTestId('chat-row').filter({ hasText: group }).click();
  await expect(page.getByRole('heading', { name: group })).toBeVisible();
  return page;
}

const panel = (page: Page) => page.getByTestId('voice-panel');
const people = (page: Page) => page.getByTestId('voice-participant');

/** Audio bytes this page received from `userId` (0 until the first stats refresh). */
const inbound = async (page: Page, userId: number) =>
  Number(
    await people(page)
      .and(page.locator(`[data-user-id="${userId}"]`))
      .getAttribute('data-inbound-bytes'),
  );

/** The page keeps receiving audio from each of the others: bytes grow across stats refreshes. */
async function hears(page: Page, others: Session[]) {
  for (const other of others) {
    await expect.poll(() => inbound(page, other.user.id), { timeout: 60_000 }).toBeGreaterThan(1000);
    const before = await inbound(page, other.user.id);
    await expect.poll(() => inbound(page, other.user.id), { timeout: 30_000 }).toBeGreaterThan(before);
  }
}

/** This page's row for someone in the voice chat's list. */
const rowOf = (page: Page, session: Session) =>
  people(page).and(page.locator(`[data-user-id="${session.user.id}"]`));

/** The id of the MediaStreamTrack this page plays `session`'s microphone from (while it is unmuted). */
const remoteTrackId = (page: Page, session: Session) =>
  page.evaluate((identity) => {
    const element = document.querySelector<HTMLAudioElement>(`audio[data-voice-identity="${identity}"]`);
    return (element?.srcObject as MediaStream | null)?.getAudioTracks()[0]?.id ?? null;
  }, `user-${session.user.id}`);

/** That remote track as this page sees it: enabled or not, and the audio packets received on it so far. */
const remoteTrack = (page: Page, trackId: string) =>
  page.evaluate(async (id) => {
    let enabled: boolean | null = null;
    let packets = 0;
    for (const pc of (window as unknown as PeerConnectionsWindow).__kadrPeerConnections) {
      if (pc.connectionState === 'closed') continue;
      for (const receiver of pc.getReceivers())
        if (receiver.track.id === id) enabled = receiver.track.enabled;
      (await pc.getStats()).forEach((s: Record<string, unknown>) => {
        if (s.type === 'inbound-rtp' && s.trackIdentifier === id) packets += Number(s.packetsReceived);
      });
    }
    return { enabled, packets };
  }, trackId);

/** Audio packets per second arriving on the track over 3 s: ~50 while someone talks, a few under Opus DTX. */
async function packetRate(page: Page, trackId: string) {
  const before = await remoteTrack(page, trackId);
  const started = Date.now();
  await page.waitForTimeout(3000);
  const after = await remoteTrack(page, trackId);
  return (after.packets - before.packets) / ((Date.now() - started) / 1000);
}

/** The panel leaves the chat's message input free at both sizes: no overlap, and the input takes a click. */
async function inputStaysFree(page: Page) {
  const input = page.getByRole('textbox', { name: 'Сообщение' });
  for (const size of [MOBILE, DESKTOP]) {
    await page.setViewportSize(size);
    await expect(input).toBeVisible();
    await expect
      .poll(async () => {
        const [a, b] = [await panel(page).boundingBox(), await input.boundingBox()];
        if (!a || !b) return 'unmeasured';
        const apart =
          a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        return apart ? 'apart' : `overlap ${JSON.stringify({ panel: a, input: b })}`;
      })
      .toBe('apart');
    await input.click(); // would fail if the panel caught the click
  }
}

/**
 * At both sizes the control lies inside the screen and is what a tap at its centre hits (`elementFromPoint`):
 * not clipped off the panel's edge nor under another layer.
 */
async function reachableAtBothSizes(page: Page, control: Locator) {
  for (const size of [MOBILE, DESKTOP]) {
    await page.setViewportSize(size);
    await control.scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        control.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const inside = r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return inside && r.width > 0 && hit !== null && el.contains(hit)
            ? 'reachable'
            : `${JSON.stringify({ left: r.left, top: r.top, right: r.right, bottom: r.bottom, innerWidth, innerHeight })} hit ${hit?.outerHTML.slice(0, 80)}`;
        }),
      )
      .toBe('reachable');
  }
}

/** The participants' names in the order this page lists them, with ✋ after a raised hand. */
const listed = (page: Page) =>
  people(page).evaluateAll((items) =>
    items.map(
      (li) =>
        `${li.querySelector('span:nth-child(2)')?.textContent}${li.getAttribute('data-hand-raised') === 'true' ? ' ✋' : ''}`,
    ),
  );

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [label, size] of [
    ['1440x900', DESKTOP],
    ['390x844', MOBILE],
  ] as const) {
    await page.setViewportSize(size);
    await page.evaluate(
      // Two frames: the layout at the new size has been painted before the picture.
      () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
    );
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png` });
  }
  await page.setViewportSize(DESKTOP);
}

test('three members in a group voice chat hear each other; joins, leaves, end for everyone; an outsider is refused', async ({
  browser,
}) => {
  const [a, b, c, x] = await Promise.all([
    register('voice', 'Анна Голосова'),
    register('voice', 'Борис Слушаев'),
    register('voice', 'Вера Речкина'),
    register('voice', 'Чужой'),
  ]);
  const group = await groupOf(a, 'Голосовая', [b, c]);

  // A non-member gets no session and no token.
  expect((await request(x, 'POST', routeUrl(voiceEndpoints.join, { id: group.id }))).status).toBe(403);

  const pageA = await inGroup(browser, a, group.name);
  const pageB = await inGroup(browser, b, group.name);
  const pageC = await inGroup(browser, c, group.name);

  await pageA.getByRole('button', { name: 'Начать голосовой чат' }).click();
  await expect(panel(pageA)).toHaveAttribute('data-state', 'connected', { timeout: CONNECT_WITHIN_MS });

  // B and C see the running chat in the group header and join it.
  for (const page of [pageB, pageC]) {
    const bar = page.getByTestId('group-voice-bar');
    await expect(bar).toContainText('Анна Голосова');
    await bar.getByRole('button', { name: 'Присоединиться' }).click();
    await expect(panel(page)).toHaveAttribute('data-state', 'connected', { timeout: CONNECT_WITHIN_MS });
  }
  for (const page of [pageA, pageB, pageC]) await expect(people(page)).toHaveCount(3);

  await hears(pageA, [b, c]);
  await hears(pageB, [a, c]);
  await hears(pageC, [a, b]);

  // Who is speaking: every fake microphone is making sound, so B sees A speaking (LiveKit's active
  // speakers), and A's audio reaches B at the full packet rate.
  const trackAtB = await remoteTrackId(pageB, a);
  expect(trackAtB).not.toBeNull();
  const aAtB = trackAtB ?? '';
  await expect(rowOf(pageB, a)).toHaveAttribute('data-speaking', 'true', { timeout: 30_000 });
  await expect(rowOf(pageB, a).getByTestId('voice-speaking')).toHaveText('говорит');
  expect(await packetRate(pageB, aAtB)).toBeGreaterThan(30);
  await shot(pageB, 'voice-speaking');

  // A mutes: B and C show A muted and no longer speaking; A's own list says so too. The track B receives
  // from A is muted (disabled by LiveKit) and carries only Opus DTX's few packets of silence.
  await panel(pageA).getByRole('button', { name: 'Выключить микрофон' }).click();
  await expect(panel(pageA).getByRole('button', { name: 'Включить микрофон' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  for (const page of [pageA, pageB, pageC]) {
    await expect(rowOf(page, a).getByRole('img', { name: 'микрофон выключен' })).toBeVisible();
    await expect(rowOf(page, a)).toHaveAttribute('data-speaking', 'false', { timeout: 30_000 });
  }
  await expect.poll(async () => (await remoteTrack(pageB, aAtB)).enabled).toBe(false);
  await expect.poll(() => packetRate(pageB, aAtB), { timeout: 30_000 }).toBeLessThan(10);
  // B, still talking, still shows as speaking to A: the indicator follows each person.
  await expect(rowOf(pageA, b)).toHaveAttribute('data-speaking', 'true', { timeout: 30_000 });
  await shot(pageB, 'voice-muted');

  // A unmutes: the mark goes, A speaks again, and the sound comes back at B.
  await panel(pageA).getByRole('button', { name: 'Включить микрофон' }).click();
  for (const page of [pageB, pageC])
    await expect(rowOf(page, a).getByRole('img', { name: 'микрофон выключен' })).toHaveCount(0);
  await expect(rowOf(pageB, a)).toHaveAttribute('data-speaking', 'true', { timeout: 30_000 });
  await expect.poll(async () => (await remoteTrack(pageB, aAtB)).enabled).toBe(true);
  await expect.poll(() => packetRate(pageB, aAtB), { timeout: 30_000 }).toBeGreaterThan(30);
  await shot(pageB, 'voice-panel');
  await inputStaysFree(pageB);

  // Raise hand: C, then B. A started the chat, so A sees raised hands first (the earliest on top); B and
  // C see the join order with the hands marked. Everyone sees each change live.
  await panel(pageC).getByRole('button', { name: 'Поднять руку' }).click();
  await expect(panel(pageC).getByRole('button', { name: 'Опустить руку' })).toBeVisible();
  await expect.poll(() => listed(pageA)).toEqual(['Вера Речкина ✋', 'Анна Голосова', 'Борис Слушаев']);
  await panel(pageB).getByRole('button', { name: 'Поднять руку' }).click();
  await expect.poll(() => listed(pageA)).toEqual(['Вера Речкина ✋', 'Борис Слушаев ✋', 'Анна Голосова']);
  for (const page of [pageB, pageC])
    await expect.poll(() => listed(page)).toEqual(['Анна Голосова', 'Борис Слушаев ✋', 'Вера Речкина ✋']);
  await shot(pageA, 'voice-raised-hands');
  // B may not lower C's hand (no button for it); A lowers it, and C sees its hand down.
  await expect(panel(pageB).getByRole('button', { name: 'Опустить руку: Вера Речкина' })).toHaveCount(0);
  await panel(pageA).getByRole('button', { name: 'Опустить руку: Вера Речкина' }).click();
  await expect(panel(pageC).getByRole('button', { name: 'Поднять руку' })).toBeVisible();
  await expect.poll(() => listed(pageB)).toEqual(['Анна Голосова', 'Борис Слушаев ✋', 'Вера Речкина']);
  await expect.poll(() => listed(pageA)).toEqual(['Борис Слушаев ✋', 'Анна Голосова', 'Вера Речкина']);

  // Minimise into the mini bar; expand again.
  await pageB.getByRole('button', { name: 'Свернуть' }).click();
  await expect(pageB.getByTestId('voice-mini-bar')).toContainText('3 участника');
  await shot(pageB, 'voice-mini-bar');
  await pageB.setViewportSize(MOBILE);
  await pageB.getByRole('textbox', { name: 'Сообщение' }).click(); // the mini bar leaves the input free too
  await pageB.setViewportSize(DESKTOP);
  await pageB.getByRole('button', { name: 'Развернуть' }).click();

  // C leaves: the others' lists follow.
  await panel(pageC).getByRole('button', { name: 'Выйти' }).click();
  await expect(panel(pageC)).toHaveCount(0);
  await expect(people(pageA)).toHaveCount(2);
  await expect(people(pageB)).toHaveCount(2);
  await expect(pageC.getByTestId('group-voice-bar')).toContainText('2 участника');

  // B may not end it for everyone; A (who started it) may: B leaves on the event.
  await expect(panel(pageB).getByRole('button', { name: 'Завершить для всех' })).toHaveCount(0);
  await reachableAtBothSizes(pageA, panel(pageA).getByRole('button', { name: 'Завершить для всех' }));
  await panel(pageA).getByRole('button', { name: 'Завершить для всех' }).click();
  await pageA.getByRole('alertdialog').getByRole('button', { name: 'Завершить для всех' }).click();
  await expect(panel(pageB)).toHaveCount(0);
  await expect(panel(pageA)).toHaveCount(0);
  await expect(pageB.getByTestId('group-voice-bar')).toHaveCount(0);
  await expect(pageC.getByRole('button', { name: 'Начать голосовой чат' })).toBeVisible();
  // No voice chat any more: the group answers null (the normal state, not an error).
  const after = await request(a, 'GET', routeUrl(voiceEndpoints.get, { id: group.id }));
  expect(after.status).toBe(200);
  expect(await after.json()).toBeNull();
});
