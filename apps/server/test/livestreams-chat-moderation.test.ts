import type {
  AuditResponse,
  LiveChatMessage,
  LiveSocketAck,
  LiveStream,
  LiveStreamJoinResponse,
} from '@kadr/contract';
import { apiUrl, moderationRoutes, settingsRoutes } from '@kadr/contract';
import { livestreamsRoutes } from '@kadr/contract/livestreams/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { api, fakeRoomService, liveEnv, until } from './livestreams-fixtures.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

interface Member {
  id: number;
  token: string;
  username: string;
  name: string;
}

/**
 * The live chat as the server's record, through the real database and real sockets: the author is the
 * session, whatever the payload says; the named limit, slow mode, deleting, muting and banning hold; late
 * joiners read the stored history; blocks keep a person out of the host's chat and out of the blocker's.
 */
describe('live streams: server-authoritative chat and its moderation', () => {
  let t: TestApp;
  let room: Awaited<ReturnType<typeof fakeRoomService>>;
  let base: string;
  const sockets: ClientSocket[] = [];
  const members: Member[] = [];
  let moderator: Member;
  const as = (i: number) => api(t.app, members[i]!.token);
  const put = (i: number, url: string, payload: object) =>
    t.app.inject({ method: 'PUT', url, headers: bearer(members[i]!.token), payload });
  const ack = (s: ClientSocket, event: 'live-stream-message' | 'live-stream-viewer-join', input: object) =>
    new Promise<LiveSocketAck>((resolve) => s.emit(event, input as never, resolve));
  const say = (s: ClientSocket, streamId: number, content: string, temp_id: string) =>
    ack(s, 'live-stream-message', { stream_id: streamId, content, temp_id });

  /** A new stream of member `host` with everyone in `watchers` in its socket room; their sockets. */
  const running = new Map<number, number>();
  async function stream(host: number, watchers: number[], title = 'Чат') {
    // One live stream per host: the previous test's ends first.
    const previous = running.get(host);
    if (previous) await as(host).post(apiUrl(livestreamsRoutes.end, { id: previous }));
    const s = (await as(host).post(apiUrl(livestreamsRoutes.create), { title })).json() as LiveStream;
    running.set(host, s.id);
    const socks = new Map<number, ClientSocket>();
    for (const i of [host, ...watchers]) {
      const sock = await openSocket(base, members[i]!.token, sockets);
      expect(await ack(sock, 'live-stream-viewer-join', { stream_id: s.id })).toEqual({
        ok: true,
        messages: [],
      });
      socks.set(i, sock);
    }
    return { s, socks, at: (i: number) => socks.get(i)! };
  }

  /** Every chat line a socket hears, from now on. */
  function heard(sock: ClientSocket) {
    const lines: LiveChatMessage[] = [];
    sock.on('live-stream-message', (m) => lines.push(m));
    return lines;
  }

  beforeAll(async () => {
    room = await fakeRoomService();
    t = await createTestApp(
      liveEnv(room.url, { RATE_LIMITS: 'live.chat=200/1m', MODERATOR_USERNAMES: 'live_chat_moderator' }),
    );
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const m = await registerUser(t.app, 'live_chat_moderator', 'Модератор');
    moderator = { id: m.user.id, token: m.access_token, username: m.user.username, name: m.user.name };
    for (let i = 0; i < 6; i += 1) {
      const s = await registerUser(t.app, undefined, `Участник ${i}`);
      members.push({ id: s.user.id, token: s.access_token, username: s.user.username, name: s.user.name });
    }
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
    await room.close();
  });

  it('a socket joining the room gets the lines stored before its join in the answer, as its reader sees them', async () => {
    const { s, at } = await stream(0, [1, 2]);
    expect(await say(at(1), s.id, 'первая строчка', 'late-1')).toEqual({ ok: true });
    expect(await say(at(2), s.id, 'вторая строчка', 'late-2')).toEqual({ ok: true });
    // A viewer who blocked viewer 2 joins late: the answer holds viewer 1's line, never viewer 2's.
    await as(3).post(apiUrl(settingsRoutes.block, { username: members[2]!.username }));
    const late = await openSocket(base, members[3]!.token, sockets);
    const joined = (await ack(late, 'live-stream-viewer-join', { stream_id: s.id })) as {
      ok: true;
      messages: LiveChatMessage[];
    };
    expect(joined.ok).toBe(true);
    expect(joined.messages.map((m) => [m.temp_id, m.sender_id])).toEqual([['late-1', members[1]!.id]]);
    await as(3).delete(apiUrl(settingsRoutes.unblock, { username: members[2]!.username }));
  });

  it('names every line by the session that sent it: a forged sender, name or id in the payload changes nothing', async () => {
    const { s, at } = await stream(0, [1, 2]);
    const atViewer = heard(at(2));
    // Viewer 1 claims to be the host in every field a line has.
    const forged = {
      stream_id: s.id,
      content: 'Я автор эфира',
      temp_id: 'forge-1',
      sender_id: members[0]!.id,
      sender_name: members[0]!.name,
      user_id: members[0]!.id,
      id: 1,
    };
    expect(await ack(at(1), 'live-stream-message', forged)).toEqual({ ok: true });
    await until(() => atViewer.length === 1, 10_000, 'the line at the other viewer');
    expect(atViewer[0]).toMatchObject({
      content: 'Я автор эфира',
      sender_id: members[1]!.id,
      sender_name: members[1]!.name,
    });
    expect(atViewer[0]!.id).not.toBe(1);
    const stored = await t.db.kysely
      .selectFrom('live_chat_messages')
      .selectAll()
      .where('id', '=', atViewer[0]!.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ stream_id: s.id, user_id: members[1]!.id, text: 'Я автор эфира' });
  });

  it('gives no media token the right to publish data', async () => {
    const { s } = await stream(3, []);
    for (const i of [3, 4]) {
      const res = await as(i).get(apiUrl(livestreamsRoutes.token, { id: s.id }));
      expect(res.statusCode).toBe(200);
      const jwt = res.json().access_token as string;
      const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());
      expect(claims.video.canPublishData).toBe(false);
    }
  });

  it('applies the live.chat limit per user', async () => {
    const limited = await createTestApp(liveEnv(room.url, { RATE_LIMITS: 'live.chat=2/1m' }), { db: t.db });
    try {
      const url = await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const s = (await api(limited.app, members[5]!.token).post(apiUrl(livestreamsRoutes.create), {})).json();
      const sock = await openSocket(url, members[4]!.token, sockets);
      expect(await say(sock, s.id, 'раз', 'l-1')).toEqual({ ok: true });
      expect(await say(sock, s.id, 'два', 'l-2')).toEqual({ ok: true });
      expect(await say(sock, s.id, 'три', 'l-3')).toMatchObject({ ok: false, code: 'rate_limited' });
      await api(limited.app, members[5]!.token).post(apiUrl(livestreamsRoutes.end, { id: s.id }));
    } finally {
      await limited.close();
    }
  }, 120_000);

  it('holds slow mode for viewers (not the host), set by the host only, announced to the room', async () => {
    const { s, at } = await stream(0, [1, 2]);
    expect((await put(1, apiUrl(livestreamsRoutes.slowMode, { id: s.id }), { seconds: 2 })).statusCode).toBe(
      403,
    );
    expect(
      (await put(0, apiUrl(livestreamsRoutes.slowMode, { id: s.id }), { seconds: 9999 })).statusCode,
    ).toBe(400);
    const announced = nextEvent(at(2), 'live-stream-slow-mode');
    const set = await put(0, apiUrl(livestreamsRoutes.slowMode, { id: s.id }), { seconds: 2 });
    expect(set.statusCode).toBe(200);
    expect((set.json() as LiveStream).slow_mode_seconds).toBe(2);
    expect(await announced).toEqual({ stream_id: s.id, slow_mode_seconds: 2 });

    expect(await say(at(1), s.id, 'первое', 's-1')).toEqual({ ok: true });
    const refused = (await say(at(1), s.id, 'второе', 's-2')) as {
      ok: false;
      code: string;
      retry_after: number;
    };
    expect(refused).toMatchObject({ ok: false, code: 'chat_slow_mode' });
    expect(refused.retry_after).toBeGreaterThanOrEqual(1);
    expect(refused.retry_after).toBeLessThanOrEqual(2);
    // Concurrent sends from one viewer: exactly one gets through the window.
    const burst = await Promise.all([0, 1, 2, 3].map((k) => say(at(2), s.id, `залп ${k}`, `b-${k}`)));
    expect(burst.filter((r) => r.ok)).toHaveLength(1);
    // The host is not held.
    expect(await say(at(0), s.id, 'хост 1', 'h-1')).toEqual({ ok: true });
    expect(await say(at(0), s.id, 'хост 2', 'h-2')).toEqual({ ok: true });
    // After the window, the viewer may write again.
    await until(async () => (await say(at(1), s.id, 'снова', `s-${Date.now()}`)).ok, 5000, 'the window');
    // Off again: no hold.
    await put(0, apiUrl(livestreamsRoutes.slowMode, { id: s.id }), { seconds: 0 });
    expect(await say(at(1), s.id, 'а', 's-a')).toEqual({ ok: true });
    expect(await say(at(1), s.id, 'б', 's-b')).toEqual({ ok: true });
  });

  it('lets the host delete a line (it vanishes for everyone and from history, kept for reports), a viewer not', async () => {
    const { s, at } = await stream(0, [1, 2]);
    const line = nextEvent<LiveChatMessage>(at(2), 'live-stream-message');
    await say(at(1), s.id, 'грубость', 'd-1');
    const { id } = await line;
    const byViewer = await as(2).delete(
      apiUrl(livestreamsRoutes.deleteChatMessage, { id: s.id, messageId: id }),
    );
    expect(byViewer.statusCode).toBe(403);
    expect(byViewer.json()).toMatchObject({ code: 'forbidden' });
    const gone = nextEvent(at(2), 'live-stream-message-deleted');
    const goneAtAuthor = nextEvent(at(1), 'live-stream-message-deleted');
    const res = await as(0).delete(apiUrl(livestreamsRoutes.deleteChatMessage, { id: s.id, messageId: id }));
    expect(res.statusCode).toBe(204);
    expect(await gone).toEqual({ stream_id: s.id, message_id: id });
    expect(await goneAtAuthor).toEqual({ stream_id: s.id, message_id: id });
    const late = (
      await as(3).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))
    ).json() as LiveStreamJoinResponse;
    expect(late.messages.map((m) => m.id)).not.toContain(id);
    const row = await t.db.kysely
      .selectFrom('live_chat_messages')
      .select(['deleted_at', 'deleted_by', 'text'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row).toMatchObject({ deleted_by: members[0]!.id, text: 'грубость' });
    // A line of another stream is not found through this one.
    const other = await stream(4, []);
    expect(
      (await as(4).delete(apiUrl(livestreamsRoutes.deleteChatMessage, { id: other.s.id, messageId: id })))
        .statusCode,
    ).toBe(404);
  });

  it('mutes a viewer for the stream: refused with a reason, told on their devices, unmuted again', async () => {
    const { s, at } = await stream(0, [1, 2]);
    const told = nextEvent(at(1), 'live-stream-chat-standing');
    expect(
      (await as(2).post(apiUrl(livestreamsRoutes.mute, { id: s.id }), { user_id: members[1]!.id }))
        .statusCode,
    ).toBe(403);
    expect(
      (await as(0).post(apiUrl(livestreamsRoutes.mute, { id: s.id }), { user_id: members[1]!.id }))
        .statusCode,
    ).toBe(204);
    expect(await told).toEqual({ stream_id: s.id, muted: true });
    expect(await say(at(1), s.id, 'можно?', 'm-1')).toMatchObject({ ok: false, code: 'chat_muted' });
    const standing = (
      await as(1).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))
    ).json() as LiveStreamJoinResponse;
    expect(standing.chat).toEqual({ muted: true, can_moderate: false });
    // Others still write; the host cannot be muted.
    expect(await say(at(2), s.id, 'я могу', 'm-2')).toEqual({ ok: true });
    const host = await as(0).post(apiUrl(livestreamsRoutes.mute, { id: s.id }), { user_id: members[0]!.id });
    expect(host.json()).toMatchObject({ code: 'moderation_target_host' });
    expect(
      (await as(0).delete(apiUrl(livestreamsRoutes.unmute, { id: s.id, userId: members[1]!.id }))).statusCode,
    ).toBe(204);
    expect(await say(at(1), s.id, 'спасибо', 'm-3')).toEqual({ ok: true });
  });

  it('bans a viewer: out of the socket room and the media room now, token, join and chat refused', async () => {
    const { s, at } = await stream(0, [1, 2]);
    const atBanned = heard(at(1));
    const told = nextEvent(at(1), 'live-stream-banned');
    room.calls.length = 0;
    expect(
      (await as(0).post(apiUrl(livestreamsRoutes.ban, { id: s.id }), { user_id: members[1]!.id })).statusCode,
    ).toBe(204);
    expect(await told).toEqual({ stream_id: s.id });
    expect(room.calls).toContainEqual({
      method: 'RemoveParticipant',
      body: { room: `stream-${s.id}`, identity: `user-${members[1]!.id}` },
    });
    // Lines after the ban do not reach the banned socket (it left the room).
    await say(at(2), s.id, 'после бана', 'x-1');
    await until(async () => {
      const j = (
        await as(2).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))
      ).json() as LiveStreamJoinResponse;
      return j.messages.some((m) => m.temp_id === 'x-1');
    });
    expect(atBanned.map((m) => m.temp_id)).not.toContain('x-1');
    expect(await say(at(1), s.id, 'я вернулся', 'x-2')).toMatchObject({ ok: false, code: 'stream_banned' });
    expect(await ack(at(1), 'live-stream-viewer-join', { stream_id: s.id })).toMatchObject({
      ok: false,
      code: 'stream_banned',
    });
    const token = await as(1).get(apiUrl(livestreamsRoutes.token, { id: s.id }));
    expect(token.statusCode).toBe(403);
    expect(token.json()).toMatchObject({ code: 'stream_banned', error: expect.stringMatching(/[а-я]/) });
    expect((await as(1).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))).statusCode).toBe(403);
    // Lifted: back in.
    expect(
      (await as(0).delete(apiUrl(livestreamsRoutes.unban, { id: s.id, userId: members[1]!.id }))).statusCode,
    ).toBe(204);
    expect((await as(1).get(apiUrl(livestreamsRoutes.token, { id: s.id }))).statusCode).toBe(200);
  });

  it('lets a guest the host made a moderator delete, mute and ban viewers, but not act on the host', async () => {
    const { s, at } = await stream(0, [1, 2, 3]);
    await as(0).post(apiUrl(livestreamsRoutes.addGuest, { id: s.id }), { user_id: members[1]!.id });
    const line = nextEvent<LiveChatMessage>(at(3), 'live-stream-message');
    await say(at(2), s.id, 'спам', 'g-1');
    const { id } = await line;
    const url = apiUrl(livestreamsRoutes.deleteChatMessage, { id: s.id, messageId: id });
    // A guest is not a moderator until the host says so.
    expect((await as(1).delete(url)).statusCode).toBe(403);
    expect(
      (
        await put(2, apiUrl(livestreamsRoutes.setModerator, { id: s.id, userId: members[1]!.id }), {
          moderator: true,
        })
      ).statusCode,
    ).toBe(403);
    const promoted = nextEvent(at(3), 'live-stream-guest-updated');
    const res = await put(0, apiUrl(livestreamsRoutes.setModerator, { id: s.id, userId: members[1]!.id }), {
      moderator: true,
    });
    expect(res.json()).toMatchObject({ user_id: members[1]!.id, moderator: true });
    expect(await promoted).toMatchObject({
      stream_id: s.id,
      guest: { user_id: members[1]!.id, moderator: true },
    });
    // Not a guest: 404.
    expect(
      (
        await put(0, apiUrl(livestreamsRoutes.setModerator, { id: s.id, userId: members[4]!.id }), {
          moderator: true,
        })
      ).statusCode,
    ).toBe(404);
    expect((await as(1).delete(url)).statusCode).toBe(204);
    expect(
      (await as(1).post(apiUrl(livestreamsRoutes.mute, { id: s.id }), { user_id: members[2]!.id }))
        .statusCode,
    ).toBe(204);
    expect(
      (await as(1).post(apiUrl(livestreamsRoutes.ban, { id: s.id }), { user_id: members[3]!.id })).statusCode,
    ).toBe(204);
    expect(
      (await as(1).post(apiUrl(livestreamsRoutes.mute, { id: s.id }), { user_id: members[0]!.id }))
        .statusCode,
    ).toBe(400);
    const joined = (
      await as(1).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))
    ).json() as LiveStreamJoinResponse;
    expect(joined.chat).toEqual({ muted: false, can_moderate: true });
    expect(joined.stream.guests).toContainEqual(
      expect.objectContaining({ user_id: members[1]!.id, moderator: true }),
    );
    // Removed from the stage, the right goes with it.
    await as(0).delete(apiUrl(livestreamsRoutes.removeGuest, { id: s.id, userId: members[1]!.id }));
    expect(
      (await as(1).delete(apiUrl(livestreamsRoutes.unmute, { id: s.id, userId: members[2]!.id }))).statusCode,
    ).toBe(403);
  });

  it('takes a report on a line; a moderator removes it from every screen and the history, and the audit keeps it', async () => {
    const { s, at } = await stream(0, [1, 2]);
    const line = nextEvent<LiveChatMessage>(at(2), 'live-stream-message');
    await say(at(1), s.id, 'оскорбление', 'r-1');
    const { id } = await line;
    const reported = await as(2).post(apiUrl(moderationRoutes.report), {
      kind: 'live_chat_message',
      target_id: id,
      reason: 'hate',
    });
    expect(reported.statusCode).toBe(200);
    const mod = api(t.app, moderator.token);
    const queue = (await mod.get(apiUrl(moderationRoutes.queue))).json() as {
      items: Array<{ id: number; kind: string; target_id: number; preview: { text: string } | null }>;
    };
    const item = queue.items.find((i) => i.kind === 'live_chat_message' && i.target_id === id);
    expect(item?.preview?.text).toBe('оскорбление');
    const gone = nextEvent(at(0), 'live-stream-message-deleted');
    const acted = await mod.post(apiUrl(moderationRoutes.act, { id: item!.id }), {
      action: 'remove',
      reason: 'оскорбления',
    });
    expect(acted.statusCode).toBe(200);
    expect(await gone).toEqual({ stream_id: s.id, message_id: id });
    const late = (
      await as(3).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))
    ).json() as LiveStreamJoinResponse;
    expect(late.messages.map((m) => m.id)).not.toContain(id);
    const row = await t.db.kysely
      .selectFrom('live_chat_messages')
      .select(['deleted_at', 'deleted_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ deleted_by: moderator.id });
    const audit = (await mod.get(apiUrl(moderationRoutes.audit))).json() as AuditResponse;
    expect(audit.entries.find((e) => e.kind === 'live_chat_message' && e.target_id === id)).toMatchObject({
      action: 'remove',
      reason: 'оскорбления',
    });
  });

  it('stores history for late joiners, oldest first, and keeps each temp_id once', async () => {
    const { s, at } = await stream(0, [1]);
    for (let i = 0; i < 5; i += 1)
      expect(await say(at(1), s.id, `история ${i}`, `hist-${i}`)).toEqual({ ok: true });
    expect(await say(at(1), s.id, 'история 4', 'hist-4')).toEqual({ ok: true });
    const late = (
      await as(5).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))
    ).json() as LiveStreamJoinResponse;
    expect(late.messages.map((m) => m.content)).toEqual([0, 1, 2, 3, 4].map((i) => `история ${i}`));
    expect(late.messages.every((m) => m.sender_name === members[1]!.name)).toBe(true);
    expect(late.chat).toEqual({ muted: false, can_moderate: false });
  });

  it('walls a person the host blocked out of the stream, and hides blocked people’s lines from the blocker', async () => {
    const { s, at } = await stream(0, [1, 2, 3]);
    await say(at(2), s.id, 'до блокировки', 'bl-0');
    // The host blocks viewer 1: no chat, no token, no join.
    expect(
      (await as(0).post(apiUrl(settingsRoutes.block, { username: members[1]!.username }))).statusCode,
    ).toBeLessThan(300);
    expect(await say(at(1), s.id, 'привет', 'bl-1')).toMatchObject({ ok: false, code: 'blocked' });
    expect((await as(1).get(apiUrl(livestreamsRoutes.token, { id: s.id }))).statusCode).toBe(403);
    expect((await as(1).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))).statusCode).toBe(403);
    const fresh = await openSocket(base, members[1]!.token, sockets);
    expect(await ack(fresh, 'live-stream-viewer-join', { stream_id: s.id })).toMatchObject({
      ok: false,
      code: 'blocked',
    });

    // Viewer 3 blocks viewer 2: viewer 2's lines reach the host but never viewer 3, live or in history.
    await as(3).post(apiUrl(settingsRoutes.block, { username: members[2]!.username }));
    const atBlocker = heard(at(3));
    const atHost = heard(at(0));
    expect(await say(at(2), s.id, 'ты меня не видишь', 'bl-2')).toEqual({ ok: true });
    expect(await say(at(0), s.id, 'хост пишет', 'bl-3')).toEqual({ ok: true });
    await until(() => atHost.length === 2 && atBlocker.length === 1, 10_000, 'the lines');
    expect(atBlocker.map((m) => m.temp_id)).toEqual(['bl-3']);
    const history = (
      await as(3).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))
    ).json() as LiveStreamJoinResponse;
    expect(history.messages.map((m) => m.temp_id)).toEqual(['bl-3']);
    const hostHistory = (
      await as(0).post(apiUrl(livestreamsRoutes.viewerJoin, { id: s.id }))
    ).json() as LiveStreamJoinResponse;
    expect(hostHistory.messages.map((m) => m.temp_id)).toEqual(['bl-0', 'bl-2', 'bl-3']);
    // Unblocked: the host's wall is gone.
    await as(0).delete(apiUrl(settingsRoutes.unblock, { username: members[1]!.username }));
    expect((await as(1).get(apiUrl(livestreamsRoutes.token, { id: s.id }))).statusCode).toBe(200);
  });
});
