import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { RoomServiceClient } from 'livekit-server-sdk';
import { mediaTokenIssuer } from '../../apps/server/src/modules/livekit/tokens.ts';
import { type LivekitNodes, startLivekitNodes } from '../../apps/server/test/livekit-nodes.ts';
import { expect, type Page, test } from '../test.ts';

/**
 * LiveKit's own multi-node mode: two livekit-server processes share one Redis, and two
 * browsers, each connected to a different node with a token for the same room, see each other and decode
 * each other's camera. Whichever node hosts the room, the other one only bridges its participant's signal
 * through Redis — so this fails if the nodes do not form one cluster. Redis is a private redis-server inside
 * the loopback namespace (the machine's Redis is not reachable from it); the nodes keep their state in db 3.
 */

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run through npm run test:e2e:media`);
  return value;
}

const harnessUrl = env('KADR_MEDIA_HARNESS_URL');
const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? 'redis-server';
const REDIS_DB = 3;

test.describe.configure({ timeout: 300_000 });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A throwaway redis-server on loopback, no persistence; resolves once it accepts connections. */
async function startRedis(): Promise<{ address: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.once('error', (err) =>
      reject(new Error(`${REDIS_SERVER}: ${err.message} (apt-get install redis-server)`)),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${out}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return { address: `127.0.0.1:${port}`, child };
}

async function openHarness(page: Page) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') console.log(`[${page.url()}] ${msg.text()}`);
  });
  await page.goto(harnessUrl);
  await page.waitForFunction(() => typeof window.harness === 'object');
}

/** True once the page shows one remote video with real dimensions and decoded frames. */
async function decodesRemoteVideo(page: Page): Promise<string> {
  const stats = await page.evaluate(() => window.harness.videoStats());
  const [video] = stats;
  return video && video.width > 0 && video.height > 0 && video.framesDecoded > 0
    ? 'decoding'
    : JSON.stringify(stats);
}

let redis: { address: string; child: ChildProcess } | null = null;
let livekit: LivekitNodes | null = null;

test.afterAll(async () => {
  await livekit?.stop();
  if (redis && redis.child.exitCode === null) {
    const exited = new Promise((resolve) => redis?.child.once('exit', resolve));
    redis.child.kill('SIGTERM');
    await exited;
  }
});

test('two LiveKit nodes on one Redis: a participant on node 1 and one on node 2 see and decode each other', async ({
  browser,
}) => {
  redis = await startRedis();
  livekit = await startLivekitNodes({ count: 2, redisAddress: redis.address, redisDb: REDIS_DB });
  const [node1, node2] = livekit.nodes as [LivekitNodes['nodes'][0], LivekitNodes['nodes'][0]];
  const callId = 1000 + Math.floor(Math.random() * 1_000_000);
  const roomName = `call-${callId}`;
  const issuer = (url: string) =>
    mediaTokenIssuer({ serverUrl: url, apiKey: livekit!.apiKey, apiSecret: livekit!.apiSecret });
  const a = await issuer(node1.url).issue({ kind: 'call', callId }, 'host', { userId: 101, name: 'Первый' });
  const b = await issuer(node2.url).issue({ kind: 'call', callId }, 'host', { userId: 102, name: 'Второй' });
  expect(a.server_url).toBe(node1.url);
  expect(b.server_url).toBe(node2.url);

  const pageA = await (await browser.newContext()).newPage();
  const pageB = await (await browser.newContext()).newPage();
  await openHarness(pageA);
  await openHarness(pageB);
  try {
    const joinedA = await pageA.evaluate(({ url, token }) => window.harness.connect(url, token), {
      url: a.server_url,
      token: a.access_token,
    });
    expect(joinedA).toMatchObject({ roomName, state: 'connected' });
    await pageA.evaluate(() => window.harness.publishCamera());
    const joinedB = await pageB.evaluate(({ url, token }) => window.harness.connect(url, token), {
      url: b.server_url,
      token: b.access_token,
    });
    expect(joinedB).toMatchObject({ roomName, state: 'connected' });
    await pageB.evaluate(() => window.harness.publishCamera());

    // Each browser decodes the camera of the one connected to the other node.
    await expect.poll(() => decodesRemoteVideo(pageB), { timeout: 60_000 }).toBe('decoding');
    await expect.poll(() => decodesRemoteVideo(pageA), { timeout: 60_000 }).toBe('decoding');

    // Both nodes answer for the one room with both participants and their tracks: its state lives in Redis.
    for (const node of [node1, node2]) {
      const rooms = new RoomServiceClient(node.url.replace(/^ws/, 'http'), livekit.apiKey, livekit.apiSecret);
      const listed = await rooms.listParticipants(roomName);
      expect(listed.map((p) => [p.identity, p.tracks.length]).sort()).toEqual([
        ['user-101', 1],
        ['user-102', 1],
      ]);
    }
  } catch (err) {
    console.log(livekit.output().split('\n').slice(-60).join('\n'));
    throw err;
  } finally {
    await pageA.evaluate(() => window.harness.disconnect()).catch(() => undefined);
    await pageB.evaluate(() => window.harness.disconnect()).catch(() => undefined);
  }
});
