import { randomBytes } from 'node:crypto';
import {
  apiUrl,
  type LiveChatMessage,
  type LiveSocketAck,
  type LiveStream,
  profileRoutes,
  settingsRoutes,
} from '@kadr/contract';
import { livestreamsRoutes } from '@kadr/contract/livestreams/routes';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp, testDatabase } from './helpers.ts';
import { fakeRoomService, liveEnv, until } from './livestreams-fixtures.ts';
import { type ClientSocket, nextEvent, openSocket, REDIS_URL, redisReachable } from './sockets.ts';

interface Member {
  id: number;
  token: string;
  username: string;
  name: string;
}

const PASSWORD = 'correct horse';
// Long TTLs: only the invalidation, never the expiry, can make these tests pass.
const CACHE_ENV = { PROFILE_CACHE_TTL_MS: '600000', RATE_LIMITS: 'live.chat=1000/1m' };

const say = (s: ClientSocket, streamId: number, content: string, temp_id: string) =>
  new Promise<LiveSocketAck>((resolve) =>
    s.emit('live-stream-message', { stream_id: streamId, content, temp_id }, resolve),
  );
const join = (s: ClientSocket, streamId: number) =>
  new Promise<LiveSocketAck>((resolve) =>
    s.emit('live-stream-viewer-join', { stream_id: streamId }, resolve),
  );

async function member(t: TestApp, name: string): Promise<Member> {
  const s = await registerUser(t.app, undefined, name, PASSWORD);
  return { id: s.user.id, token: s.access_token, username: s.user.username, name: s.user.name };
}

async function startStream(t: TestApp, host: Member): Promise<LiveStream> {
  const res = await t.app.inject({
    method: 'POST',
    url: apiUrl(livestreamsRoutes.create),
    headers: bearer(host.token),
    payload: { title: 'Кэш' },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as LiveStream;
}

async function endStream(t: TestApp, host: Member, id: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: apiUrl(livestreamsRoutes.end, { id }),
    headers: bearer(host.token),
  });
  expect(res.statusCode).toBe(200);
}

async function rename(t: TestApp, who: Member, name: string) {
  const res = await t.app.inject({
    method: 'PATCH',
    url: apiUrl(profileRoutes.update),
    headers: bearer(who.token),
    payload: { name },
  });
  expect(res.statusCode).toBe(200);
}

/** Sends a message and returns it as a watcher of the room received it. */
async function relayed(sender: ClientSocket, watcher: ClientSocket, streamId: number, content: string) {
  const heard = nextEvent<LiveChatMessage>(watcher, 'live-stream-message');
  expect(await say(sender, streamId, content, `t-${randomBytes(4).toString('hex')}`)).toEqual({ ok: true });
  return heard;
}

describe('live chat read cache: one node', () => {
  let t: TestApp;
  let room: Awaited<ReturnType<typeof fakeRoomService>>;
  let base: string;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    room = await fakeRoomService();
    t = await createTestApp(liveEnv(room.url, CACHE_ENV));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
    await room.close();
  });

  /** A host live with a stream, both of them on sockets, the host in the stream's room. */
  async function liveRoom(hostName: string, viewerName: string) {
    const host = await member(t, hostName);
    const viewer = await member(t, viewerName);
    const s = await startStream(t, host);
    const hostSocket = await openSocket(base, host.token, sockets);
    const viewerSocket = await openSocket(base, viewer.token, sockets);
    expect(await join(hostSocket, s.id)).toEqual({ ok: true, messages: [] });
    return { host, viewer, s, hostSocket, viewerSocket };
  }

  it('stores a message to a warm stream without reading the stream or the sender (the cache serves both)', async () => {
    const { host, s, hostSocket, viewerSocket } = await liveRoom('Ведущий', 'Зритель');
    await relayed(viewerSocket, hostSocket, s.id, 'прогрев');

    const executor = t.db.kysely.getExecutor();
    const run = executor.executeQuery.bind(executor);
    const seen: string[] = [];
    const spy = vi.spyOn(executor, 'executeQuery').mockImplementation((query) => {
      seen.push(query.sql);
      return run(query);
    });
    try {
      expect((await relayed(viewerSocket, hostSocket, s.id, 'горячий')).content).toBe('горячий');
    } finally {
      spy.mockRestore();
    }
    // Other work of the app (presence, sweeps) may query meanwhile: only the chat's own statements count.
    expect(seen.filter((q) => /from "live_streams" where "id" =/.test(q))).toEqual([]);
    expect(seen.filter((q) => /from "users" where "id" in/.test(q))).toEqual([]);
    expect(seen.filter((q) => q.startsWith('insert into "live_chat_messages"'))).toHaveLength(1);
    await endStream(t, host, s.id);
  });

  it('refuses messages to a stream once it ended, though its row was cached live', async () => {
    const { host, s, hostSocket, viewerSocket } = await liveRoom('Ведущий', 'Зритель');
    // Warms the cache: the stream is read (live) and kept.
    expect((await relayed(viewerSocket, hostSocket, s.id, 'до конца')).content).toBe('до конца');

    await endStream(t, host, s.id);
    expect(await say(viewerSocket, s.id, 'после конца', 'after-end')).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(await join(viewerSocket, s.id)).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('shows a renamed sender’s new name on the next message', async () => {
    const { host, viewer, s, hostSocket, viewerSocket } = await liveRoom('Ведущая', 'Старое Имя');
    expect((await relayed(viewerSocket, hostSocket, s.id, 'раз')).sender_name).toBe('Старое Имя');

    await rename(t, viewer, 'Новое Имя');
    expect((await relayed(viewerSocket, hostSocket, s.id, 'два')).sender_name).toBe('Новое Имя');
    await endStream(t, host, s.id);
  });

  it('refuses messages to the stream of a host who deleted the account (404, not a failed insert)', async () => {
    const { host, s, hostSocket, viewerSocket } = await liveRoom('Уходящий', 'Остающийся');
    expect((await relayed(viewerSocket, hostSocket, s.id, 'пока')).content).toBe('пока');

    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(settingsRoutes.deleteAccount),
      headers: bearer(host.token),
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(await say(viewerSocket, s.id, 'ты где?', 'gone')).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('answers not_found, not an internal error, when the row went behind the cache’s back', async () => {
    const host = await member(t, 'Ведущий');
    const viewer = await member(t, 'Зритель');
    const s = await startStream(t, host);
    const viewerSocket = await openSocket(base, viewer.token, sockets);
    expect(await say(viewerSocket, s.id, 'прогрев', 'warm')).toEqual({ ok: true });
    // A cascade nobody announces (the cache holds the row live until its TTL of 10 minutes here).
    await t.db.kysely.deleteFrom('live_streams').where('id', '=', s.id).execute();
    expect(await say(viewerSocket, s.id, 'есть кто?', 'gone-1')).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    // And the row is dropped from the cache: the next message is refused before the insert.
    expect(await say(viewerSocket, s.id, 'есть кто?', 'gone-2')).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });
});

const hasRedis = await redisReachable('live chat read cache across two nodes');

describe.runIf(hasRedis)('live chat read cache: two nodes sharing REDIS_URL', () => {
  let shared: Awaited<ReturnType<typeof testDatabase>>;
  let room: Awaited<ReturnType<typeof fakeRoomService>>;
  let one: TestApp;
  let two: TestApp;
  let baseOne: string;
  let baseTwo: string;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    shared = await testDatabase();
    room = await fakeRoomService();
    const env = liveEnv(room.url, {
      ...CACHE_ENV,
      REDIS_URL,
      REDIS_PREFIX: `kadr_test_${randomBytes(4).toString('hex')}`,
      TOKEN_CACHE_TTL_MS: '60000',
    });
    one = await createTestApp(env, { db: shared.db });
    two = await createTestApp({ ...env, JOBS_WORKER: 'false' }, { db: shared.db });
    baseOne = await one.app.listen({ port: 0, host: '127.0.0.1' });
    baseTwo = await two.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await two?.close();
    await one?.close();
    await room?.close();
    await shared?.drop();
  });

  it('an end and a rename on one node are seen by the other node’s cache at once', async () => {
    const host = await member(one, 'Ведущий');
    const viewer = await member(one, 'Было');
    const s = await startStream(one, host);
    const hostSocket = await openSocket(baseOne, host.token, sockets);
    const viewerSocket = await openSocket(baseTwo, viewer.token, sockets);
    expect(await join(hostSocket, s.id)).toMatchObject({ ok: true });
    // Node two reads and keeps the stream and the sender's name; the message reaches node one's socket.
    expect((await relayed(viewerSocket, hostSocket, s.id, 'раз')).sender_name).toBe('Было');

    // The bus notice crosses Redis while the next message crosses the socket: a few tries within 3 s (the
    // cache's TTL here is 10 minutes, so only the notice can make them pass).
    await rename(one, viewer, 'Стало');
    await until(
      async () => (await relayed(viewerSocket, hostSocket, s.id, 'два')).sender_name === 'Стало',
      3000,
      'the new name on node two',
    );

    await endStream(one, host, s.id);
    let i = 0;
    await until(
      async () => (await say(viewerSocket, s.id, 'после', `after-${i++}`)).ok === false,
      3000,
      'node two refusing the ended stream',
    );
    expect(await say(viewerSocket, s.id, 'после', 'after')).toMatchObject({ ok: false, code: 'not_found' });
  });
});
