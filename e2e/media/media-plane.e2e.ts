import { authEndpoints } from '@kadr/contract/auth/endpoints';
import { apiUrl as routeUrl } from '@kadr/contract/browser';
import { livekitEndpoints } from '@kadr/contract/livekit/endpoints';
import { RoomServiceClient } from 'livekit-server-sdk';
import { mediaTokenIssuer } from '../../apps/server/src/modules/livekit/tokens.ts';
import { expect, type Page, test } from '../test.ts';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run through npm run test:e2e:media`);
  return value;
}

const apiUrl = env('KADR_MEDIA_API_URL');
const harnessUrl = env('KADR_MEDIA_HARNESS_URL');
const livekitUrl = env('KADR_MEDIA_LIVEKIT_URL');
const apiKey = env('KADR_MEDIA_API_KEY');
const apiSecret = env('KADR_MEDIA_API_SECRET');
const tokens = mediaTokenIssuer({ serverUrl: livekitUrl, apiKey, apiSecret });
const rooms = new RoomServiceClient(livekitUrl.replace(/^ws/, 'http'), apiKey, apiSecret);

async function openHarness(page: Page) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') console.log(`[${page.url()}] ${msg.text()}`);
  });
  await page.goto(harnessUrl);
  await page.waitForFunction(() => typeof window.harness === 'object');
}

async function signIn(): Promise<{ bearer: string; id: number }> {
  const res = await fetch(`${apiUrl}${routeUrl(authEndpoints.register)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `media_${Date.now() % 1_000_000_000}${Math.random().toString(36).slice(2, 6)}`,
      name: 'Медиа Тест',
      password: 'correct horse',
    }),
  });
  expect(res.status).toBe(201);
  const session = (await res.json()) as { access_token: string; user: { id: number } };
  return { bearer: session.access_token, id: session.user.id };
}

async function participantCount(roomName: string, bearer: string): Promise<number | null> {
  const res = await fetch(`${apiUrl}${routeUrl(livekitEndpoints.room, { name: roomName })}`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  if (res.status === 404) return null;
  return ((await res.json()) as { participant_count: number }).participant_count;
}

test('host publishes camera and microphone; viewer receives both, no data packet is relayed, viewer cannot publish; webhooks count', async ({
  browser,
}) => {
  const streamId = 1000 + Math.floor(Math.random() * 1_000_000);
  const roomName = `stream-${streamId}`;
  // The room's state is shown to its participants only: the host reads it, an outsider gets 404.
  const [hostUser, viewerUser, outsider] = [await signIn(), await signIn(), await signIn()];
  const bearer = hostUser.bearer;
  const hostIdentity = `user-${hostUser.id}`;
  const viewerIdentity = `user-${viewerUser.id}`;
  const host = await tokens.issue({ kind: 'stream', streamId }, 'host', {
    userId: hostUser.id,
    name: 'Ведущий',
  });
  const viewer = await tokens.issue({ kind: 'stream', streamId }, 'viewer', {
    userId: viewerUser.id,
    name: 'Зритель',
  });

  const pageA = await (await browser.newContext()).newPage();
  const pageB = await (await browser.newContext()).newPage();
  await openHarness(pageA);
  await openHarness(pageB);

  // A: the host connects and publishes the fake camera and microphone through the wrapper.
  const joinedA = await pageA.evaluate(({ url, token }) => window.harness.connect(url, token), {
    url: host.server_url,
    token: host.access_token,
  });
  expect(joinedA).toEqual({ roomName, state: 'connected' });
  await pageA.evaluate(() => window.harness.publishCamera());
  await pageA.evaluate(() => window.harness.publishMicrophone());

  // B: the viewer connects and gets decoded video frames and a flowing audio track.
  await pageB.evaluate(({ url, token }) => window.harness.connect(url, token), {
    url: viewer.server_url,
    token: viewer.access_token,
  });
  await expect
    .poll(
      async () => {
        const [stats] = await pageB.evaluate(() => window.harness.videoStats());
        return Boolean(stats && stats.width > 0 && stats.height > 0 && stats.framesDecoded > 0);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await expect
    .poll(() => pageB.evaluate(() => window.harness.audioStats()), { timeout: 30_000 })
    .toMatchObject({ attached: 1, tracks: [{ packetsReceived: expect.any(Number) }] });
  await expect
    .poll(async () => {
      const [track] = (await pageB.evaluate(() => window.harness.audioStats())).tracks;
      // The counters themselves are the failure message when the audio never flows.
      return track && track.packetsReceived > 0 && !track.muted ? 'audio flowing' : JSON.stringify(track);
    })
    .toBe('audio flowing');

  // Both are in the room, as the webhooks told the Kadr server.
  await expect.poll(() => participantCount(roomName, bearer)).toBe(2);
  expect(await participantCount(roomName, outsider.bearer)).toBeNull();

  // No data channel: B's packet claiming the host's name never reaches A, nor does the host's own (the
  // live chat goes through the server, which names the author from the session).
  const forged = {
    type: 'live-stream-message',
    stream_id: streamId,
    content: 'Я ведущий',
    sender_name: 'Ведущий',
    temp_id: 'temp-1',
  };
  const audioPackets = async () =>
    (await pageB.evaluate(() => window.harness.audioStats())).tracks[0]?.packetsReceived ?? 0;
  await pageB.evaluate(({ value, topic }) => window.harness.publishDataIgnoringGrant(value, topic), {
    value: forged,
    topic: `live-chat:${roomName}`,
  });
  await pageA.evaluate(() => window.harness.publishDataIgnoringGrant({ from: 'host' }, 'probe'));
  // Media sent after the packets keeps arriving (about 2 s of audio): by then a packet would have too.
  const after = await audioPackets();
  await expect.poll(audioPackets, { timeout: 30_000 }).toBeGreaterThan(after + 100);
  expect(await pageA.evaluate(() => window.harness.dataReceived())).toEqual([]);
  expect(await pageB.evaluate(() => window.harness.dataReceived())).toEqual([]);

  // B may not publish: the wrapper refuses with the Russian text, and a client that skips the check is
  // refused by LiveKit itself — the server lists no track for B and A never receives one.
  const refused = await pageB.evaluate(() => window.harness.tryPublishCamera());
  expect(refused).toEqual({
    published: false,
    failure: 'forbidden',
    message: 'В этой комнате у вас нет права выступать',
  });
  const forced = await pageB.evaluate(() => window.harness.publishCameraIgnoringClientCheck(8000));
  expect(forced).not.toBe('published');
  const listed = await rooms.listParticipants(roomName);
  const viewerInfo = listed.find((p) => p.identity === viewerIdentity);
  expect(viewerInfo?.permission?.canPublish).toBe(false);
  expect(viewerInfo?.tracks).toEqual([]);
  expect(listed.find((p) => p.identity === hostIdentity)?.tracks.length).toBe(2);
  expect(await pageA.evaluate(() => window.harness.videoStats())).toEqual([]);

  // B leaves: LiveKit's participant_left webhook brings the count to 1.
  await pageB.evaluate(() => window.harness.disconnect());
  await expect.poll(() => participantCount(roomName, bearer)).toBe(1);
  expect(await pageA.evaluate(() => window.harness.states())).toEqual(['connected']);

  await pageA.evaluate(() => window.harness.disconnect());
  await expect.poll(() => participantCount(roomName, bearer)).toBe(0);
});
