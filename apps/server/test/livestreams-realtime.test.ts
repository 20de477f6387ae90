import type { LiveChatMessage, LiveSocketAck, LiveStream, LiveStreamJoinResponse } from '@kadr/contract';
import { apiUrl, profileRoutes } from '@kadr/contract';
import { livestreamsRoutes } from '@kadr/contract/livestreams/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { api, fakeRoomService, liveEnv, until, webhook } from './livestreams-fixtures.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

interface Member {
  id: number;
  token: string;
  username: string;
  name: string;
}

describe('live streams: realtime', () => {
  let t: TestApp;
  let room: Awaited<ReturnType<typeof fakeRoomService>>;
  let base: string;
  const sockets: ClientSocket[] = [];
  const members: Member[] = [];
  const as = (i: number) => api(t.app, members[i]!.token);
  const emitAck = (s: ClientSocket, event: 'live-stream-message' | 'live-stream-viewer-join', input: never) =>
    new Promise<LiveSocketAck>((resolve) => s.emit(event, input, resolve));
  const join = (s: ClientSocket, streamId: number) =>
    emitAck(s, 'live-stream-viewer-join', { stream_id: streamId } as never);
  const say = (s: ClientSocket, streamId: number, content: string, temp_id: string) =>
    emitAck(s, 'live-stream-message', { stream_id: streamId, content, temp_id } as never);

  beforeAll(async () => {
    room = await fakeRoomService();
    t = await createTestApp(
      liveEnv(room.url, {
        LIVESTREAM_HOST_TIMEOUT_MS: '400',
        RATE_LIMITS: 'live.chat=120/1m',
      }),
    );
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    for (let i = 0; i < 5; i += 1) {
      const s = await registerUser(t.app, undefined, `Зритель ${i}`);
      members.push({ id: s.user.id, token: s.access_token, username: s.user.username, name: s.user.name });
    }
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
    await room.close();
  });

  it('announces start and end to the host’s followers and to everyone watching, not to others', async () => {
    await as(1).post(apiUrl(profileRoutes.follow, { username: members[0]!.username }));
    const follower = await openSocket(base, members[1]!.token, sockets);
    const stranger = await openSocket(base, members[2]!.token, sockets);
    const heardByStranger: unknown[] = [];
    stranger.on('live-stream-started', (e) => heardByStranger.push(e));

    const started = nextEvent<{ stream_id: number }>(follower, 'live-stream-started');
    const s = (await as(0).post(apiUrl(livestreamsRoutes.create), { title: 'Старт' })).json() as LiveStream;
    expect(await started).toEqual({ stream_id: s.id });

    // The stranger watches, so hears the end.
    expect(await join(stranger, s.id)).toEqual({ ok: true, messages: [] });
    const endedForFollower = nextEvent(follower, 'live-stream-ended');
    const endedForWatcher = nextEvent(stranger, 'live-stream-ended');
    await as(0).post(apiUrl(livestreamsRoutes.end, { id: s.id }));
    expect(await endedForFollower).toEqual({ stream_id: s.id });
    expect(await endedForWatcher).toEqual({ stream_id: s.id });
    expect(heardByStranger).toEqual([]);
    // An ended stream's room cannot be joined.
    expect(await join(stranger, s.id)).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('relays chat trimmed and once per temp_id, refuses empty and 501, keeps the last 100 for late joiners', async () => {
    const s = (await as(0).post(apiUrl(livestreamsRoutes.create), { title: 'Чат' })).json() as LiveStream;
    const host = await openSocket(base, members[0]!.token, sockets);
    const viewer = await openSocket(base, members[3]!.token, sockets);
    await join(host, s.id);
    await join(viewer, s.id);

    const atHost = nextEvent<LiveChatMessage>(host, 'live-stream-message');
    expect(await say(viewer, s.id, '  Привет!  ', 'tmp-1')).toEqual({ ok: true });
    expect(await atHost).toMatchObject({
      type: 'live-stream-message',
      stream_id: s.id,
      content: 'Привет!',
      sender_id: members[3]!.id,
      sender_name: members[3]!.name,
      temp_id: 'tmp-1',
    });

    const received: LiveChatMessage[] = [];
    host.on('live-stream-message', (m) => received.push(m));
    // A repeat of the same temp_id (the data channel and a retry) is stored and sent once.
    expect(await say(viewer, s.id, 'Привет!', 'tmp-1')).toEqual({ ok: true });
    expect(await say(viewer, s.id, '   ', 'tmp-2')).toMatchObject({ ok: false, code: 'chat_invalid' });
    expect(await say(viewer, s.id, 'я'.repeat(501), 'tmp-3')).toMatchObject({
      ok: false,
      code: 'chat_invalid',
    });
    // NUL (a control character; PostgreSQL text cannot hold it either) is refused by the text normaliser
    // every socket event passes, never an internal error.
    expect(await say(viewer, s.id, 'a\u0000b', 'tmp-5')).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    expect(await say(viewer, s.id, 'ок', 'tmp\u00006')).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    expect(await say(viewer, s.id, 'я'.repeat(500), 'tmp-4')).toEqual({ ok: true });
    await until(() => received.length === 1, 10_000, 'the 500-character message');
    expect(received[0]!.temp_id).toBe('tmp-4');

    for (let i = 0; i < 105; i += 1)
      expect(await say(host, s.id, `сообщение ${i}`, `h-${i}`)).toEqual({ ok: true });
    const late = (
      await as(4).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))
    ).json() as LiveStreamJoinResponse;
    expect(late.stream.id).toBe(s.id);
    expect(late.messages).toHaveLength(100);
    expect(late.messages.at(-1)).toMatchObject({ content: 'сообщение 104', sender_id: members[0]!.id });
    expect(late.messages[0]!.content).toBe('сообщение 5');
    await as(0).post(apiUrl(livestreamsRoutes.end, { id: s.id }));
  });

  it('rate-limits chat per user through the named limit live.chat', async () => {
    const limited = await createTestApp(liveEnv(room.url, { RATE_LIMITS: 'live.chat=3/1m' }), { db: t.db });
    try {
      const url = await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const s = (
        await api(limited.app, members[4]!.token).post(apiUrl(livestreamsRoutes.create), {})
      ).json() as LiveStream;
      const socket = await openSocket(url, members[2]!.token, sockets);
      for (let i = 0; i < 3; i += 1)
        expect(await say(socket, s.id, `раз ${i}`, `r-${i}`)).toEqual({ ok: true });
      const refused = (await say(socket, s.id, 'ещё', 'r-3')) as { retry_after?: number };
      expect(refused).toMatchObject({ ok: false, code: 'rate_limited' });
      expect(refused.retry_after).toBeGreaterThan(0);
      expect(refused.retry_after).toBeLessThanOrEqual(60);
      expect(await limited.app.ctx.limits.used('live.chat', { user: members[2]!.id })).toBe(3);
      // Another user is not affected.
      const other = await openSocket(url, members[3]!.token, sockets);
      expect(await say(other, s.id, 'я тоже', 'o-1')).toEqual({ ok: true });
      await api(limited.app, members[4]!.token).post(apiUrl(livestreamsRoutes.end, { id: s.id }));
    } finally {
      await limited.close();
    }
    // A second app is started here: on a loaded machine that alone took 25 s.
  }, 120_000);

  it('keeps viewer_count from LiveKit webhooks and tells the watchers', async () => {
    const s = (await as(0).post(apiUrl(livestreamsRoutes.create), { title: 'Счёт' })).json() as LiveStream;
    const host = await openSocket(base, members[0]!.token, sockets);
    await join(host, s.id);
    const name = `stream-${s.id}`;
    await webhook(t.app, 'room_started', name);
    await webhook(t.app, 'participant_joined', name, {
      sid: `PA_h${s.id}`,
      identity: `user-${members[0]!.id}`,
      role: 'host',
    });
    const one = nextEvent<{ viewer_count: number }>(host, 'live-stream-viewers', (e) => e.viewer_count === 1);
    await webhook(t.app, 'participant_joined', name, {
      sid: `PA_v${s.id}`,
      identity: `user-${members[1]!.id}`,
      role: 'viewer',
    });
    expect(await one).toEqual({ stream_id: s.id, viewer_count: 1 });
    expect(
      ((await as(1).get(apiUrl(livestreamsRoutes.get, { id: s.id }))).json() as LiveStream).viewer_count,
    ).toBe(1);
    const zero = nextEvent<{ viewer_count: number }>(
      host,
      'live-stream-viewers',
      (e) => e.viewer_count === 0,
    );
    await webhook(t.app, 'participant_left', name, {
      sid: `PA_v${s.id}`,
      identity: `user-${members[1]!.id}`,
      role: 'viewer',
    });
    await zero;
    // The room finishing (LiveKit closed it) ends the stream.
    const ended = nextEvent(host, 'live-stream-ended');
    await webhook(t.app, 'room_finished', name);
    expect(await ended).toEqual({ stream_id: s.id });
    expect(((await as(1).get(apiUrl(livestreamsRoutes.get, { id: s.id }))).json() as LiveStream).status).toBe(
      'ended',
    );
  });

  it('ends a stream by itself once its host has been gone past the timeout, not while the host is back', async () => {
    const s = (await as(0).post(apiUrl(livestreamsRoutes.create), { title: 'Ушёл' })).json() as LiveStream;
    const watcher = await openSocket(base, members[1]!.token, sockets);
    await join(watcher, s.id);
    const name = `stream-${s.id}`;
    const hostP = (sid: string) => ({ sid, identity: `user-${members[0]!.id}`, role: 'host' });
    await webhook(t.app, 'room_started', name);
    await webhook(t.app, 'participant_joined', name, hostP(`PA_a${s.id}`));
    // A short drop with a reconnect inside the timeout keeps the stream.
    await webhook(t.app, 'participant_left', name, hostP(`PA_a${s.id}`));
    await webhook(t.app, 'participant_joined', name, hostP(`PA_b${s.id}`));
    const startedWait = Date.now();
    await until(() => Date.now() - startedWait > 2000, 3000);
    expect(((await as(1).get(apiUrl(livestreamsRoutes.get, { id: s.id }))).json() as LiveStream).status).toBe(
      'live',
    );

    room.calls.length = 0;
    const ended = nextEvent(watcher, 'live-stream-ended', () => true, 6000);
    await webhook(t.app, 'participant_left', name, hostP(`PA_b${s.id}`));
    expect(await ended).toEqual({ stream_id: s.id });
    expect(((await as(1).get(apiUrl(livestreamsRoutes.get, { id: s.id }))).json() as LiveStream).status).toBe(
      'ended',
    );
    await until(
      () => room.calls.some((c) => c.method === 'DeleteRoom' && c.body.room === name),
      2000,
      'room closed',
    );
  });

  it('invites a guest in real time and tells everyone watching of removal', async () => {
    const s = (await as(0).post(apiUrl(livestreamsRoutes.create), { title: 'Гость' })).json() as LiveStream;
    const guest = await openSocket(base, members[2]!.token, sockets);
    const watcher = await openSocket(base, members[3]!.token, sockets);
    await join(watcher, s.id);
    const invited = nextEvent<{ stream_id: number; guest: { user_id: number } }>(
      guest,
      'live-stream-guest-added',
    );
    const seen = nextEvent(watcher, 'live-stream-guest-added');
    await as(0).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), { user_id: members[2]!.id });
    expect(await invited).toMatchObject({ stream_id: s.id, guest: { user_id: members[2]!.id } });
    await seen;
    const removed = nextEvent(guest, 'live-stream-guest-removed');
    await as(0).delete(apiUrl(livestreamsRoutes.removeGuest, { id: s.id, userId: members[2]!.id }));
    expect(await removed).toEqual({ stream_id: s.id, user_id: members[2]!.id });
    await as(0).post(apiUrl(livestreamsRoutes.end, { id: s.id }));
  });
});
