import type { ChatListItem, OnlineEvent, Profile, Settings, Story, StoryGroup } from '@kadr/contract';
import { apiUrl, ErrorCode, ErrorText, messengerRoutes, profileRoutes, settingsRoutes } from '@kadr/contract';
import { callsRoutes } from '@kadr/contract/calls/routes';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { brightImage } from '../src/modules/media/demo/generate.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { MEDIA_TEST_ENV, multipart } from './media-helpers.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

/** Settings enforced on the server: who may message and call, hidden last seen, blocks (spec §2.3). */

let t: TestApp;
let url: string;
const open: ClientSocket[] = [];
type U = { token: string; id: number; username: string };

async function user(): Promise<U> {
  const s = await registerUser(t.app);
  return { token: s.access_token, id: s.user.id, username: s.user.username };
}
const api = (
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT',
  url: string,
  token: string,
  payload?: object,
) => t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const follow = async (who: U, whom: U) =>
  expect(
    (await api('POST', apiUrl(profileRoutes.follow, { username: whom.username }), who.token)).statusCode,
  ).toBe(200);
const setPrivacy = async (who: U, privacy: Partial<Settings['privacy']>) => {
  const res = await api('PATCH', apiUrl(settingsRoutes.update), who.token, { privacy });
  expect(res.statusCode, res.body).toBe(200);
};
const send = (from: U, to: U, content = 'привет') =>
  api('POST', apiUrl(messengerRoutes.send), from.token, {
    other_user_id: to.id,
    content,
    temp_id: `t-${Math.random()}`,
  });
const startCall = (from: U, to: U) =>
  api('POST', apiUrl(callsRoutes.start), from.token, { user_id: to.id, kind: 'audio' });

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(() => t?.close());

describe('settings document', () => {
  it('answers defaults, stores a partial patch, refuses unknown fields', async () => {
    const a = await user();
    const first = (await api('GET', apiUrl(settingsRoutes.get), a.token)).json() as Settings;
    expect(first.privacy).toEqual({
      messages: 'everyone',
      last_seen: 'everyone',
      calls: 'everyone',
      group_add: 'everyone',
      private_account: false,
    });
    expect(first.chat.theme).toBe('dark');
    const res = await api('PATCH', apiUrl(settingsRoutes.update), a.token, {
      chat: { theme: 'light', text_size: 'large' },
      notifications: { types: { like: { push: false } } },
    });
    expect(res.statusCode).toBe(200);
    const again = (await api('GET', apiUrl(settingsRoutes.get), a.token)).json() as Settings;
    expect(again.chat).toMatchObject({ theme: 'light', text_size: 'large', enter_sends: true });
    expect(again.notifications.types.like).toEqual({ in_app: true, push: false });
    expect(
      (await api('PATCH', apiUrl(settingsRoutes.update), a.token, { chat: { theme: 'neon' } })).statusCode,
    ).toBe(400);
    expect((await api('PATCH', apiUrl(settingsRoutes.update), a.token, { extra: 1 })).statusCode).toBe(400);
  });
});

describe('who may message me', () => {
  it('people I follow only: a stranger is refused 403 with the Russian reason, a followed user is not', async () => {
    const a = await user();
    const b = await user();
    const c = await user();
    await follow(a, c);
    await setPrivacy(a, { messages: 'following' });
    const refused = await send(b, a);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: ErrorText.messagesRestricted,
      code: ErrorCode.messagesRestricted,
    });
    expect((await send(c, a)).statusCode).toBe(200);
    // A writes to anyone; forwarding into A's chat is refused the same way.
    expect((await send(a, b)).statusCode).toBe(200);
    // Following B later lets B write (the follow change reaches the cache).
    await follow(a, b);
    expect((await send(b, a)).statusCode).toBe(200);
  });

  it('nobody («Писать: никто»): even a followed user is refused; «everyone» opens it again', async () => {
    const a = await user();
    const c = await user();
    await follow(a, c);
    await setPrivacy(a, { messages: 'nobody' });
    const refused = await send(c, a);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: ErrorText.messagesClosed, code: ErrorCode.messagesRestricted });
    // A still writes to others.
    expect((await send(a, c)).statusCode).toBe(200);
    await setPrivacy(a, { messages: 'everyone' });
    expect((await send(c, a)).statusCode).toBe(200);
  });

  it('refuses the socket send too', async () => {
    const a = await user();
    const b = await user();
    await setPrivacy(a, { messages: 'following' });
    const s = await openSocket(url, b.token, open);
    const ack = await new Promise<{ ok: boolean; status?: number; error?: string }>((resolve) =>
      s.emit('send-message', { other_user_id: a.id, content: 'эй', temp_id: 'sock-1' }, resolve as never),
    );
    expect(ack.ok).toBe(false);
    expect(JSON.stringify(ack)).toContain(ErrorText.messagesRestricted);
  });
});

describe('who may call me', () => {
  it('people I follow only: 403 with the reason', async () => {
    const a = await user();
    const b = await user();
    await setPrivacy(a, { calls: 'following' });
    const res = await startCall(b, a);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: ErrorText.callsRestricted, code: ErrorCode.callsRestricted });
  });
});

describe('last seen and online', () => {
  async function seenUser() {
    const a = await user();
    const s = await openSocket(url, a.token, open);
    s.disconnect();
    // last_seen is stored when the last socket goes.
    for (let i = 0; i < 200; i += 1) {
      const p = (
        await api('GET', apiUrl(profileRoutes.get, { username: a.username }), a.token)
      ).json() as Profile;
      if (p.last_seen) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    return a;
  }

  it('nobody: absent from the profile, the chat list and presence answers for others; the owner still sees it', async () => {
    const a = await seenUser();
    const b = await user();
    await follow(b, a);
    expect(
      ((await api('GET', apiUrl(profileRoutes.get, { username: a.username }), b.token)).json() as Profile)
        .last_seen,
    ).not.toBeNull();
    expect((await send(b, a)).statusCode).toBe(200);
    await setPrivacy(a, { last_seen: 'nobody' });
    expect(
      ((await api('GET', apiUrl(profileRoutes.get, { username: a.username }), b.token)).json() as Profile)
        .last_seen,
    ).toBeNull();
    expect(
      ((await api('GET', apiUrl(profileRoutes.get, { username: a.username }), a.token)).json() as Profile)
        .last_seen,
    ).not.toBeNull();
    const chats = (await api('GET', apiUrl(messengerRoutes.chats), b.token)).json() as {
      chats: ChatListItem[];
    };
    const chat = chats.chats.find((c) => c.user_id === a.id);
    expect(chat).toBeDefined();
    expect(chat?.last_seen).toBeNull();
    const paged = (
      await api('GET', apiUrl(messengerRoutes.chats, undefined, { limit: 10 }), b.token)
    ).json() as { chats: ChatListItem[] };
    expect(paged.chats.find((c) => c.user_id === a.id)?.last_seen).toBeNull();

    // Online: B (a follower and chat peer) neither hears it nor can query it.
    const bs = await openSocket(url, b.token, open);
    const heard: OnlineEvent[] = [];
    bs.on('online', (e) => heard.push(e));
    const as = await openSocket(url, a.token, open);
    const query = () => new Promise<number[]>((resolve) => bs.emit('presence:query', [a.id], resolve));
    expect(await query()).toEqual([]);
    const own = await new Promise<number[]>((resolve) => as.emit('presence:query', [a.id], resolve));
    expect(own).toEqual([a.id]);
    // A control user C whose presence B may see proves events do flow to B.
    const c = await user();
    await follow(b, c);
    const cameOnline = nextEvent<OnlineEvent>(bs, 'online', (e) => e.sender_id === c.id);
    await openSocket(url, c.token, open);
    await cameOnline;
    expect(heard.filter((e) => e.sender_id === a.id)).toEqual([]);
  });

  it('people I follow: a follower I do not follow back sees nothing; one I follow sees it', async () => {
    const a = await seenUser();
    const b = await user();
    const c = await user();
    await follow(b, a);
    await follow(c, a);
    await follow(a, c);
    await setPrivacy(a, { last_seen: 'following' });
    expect(
      ((await api('GET', apiUrl(profileRoutes.get, { username: a.username }), b.token)).json() as Profile)
        .last_seen,
    ).toBeNull();
    expect(
      ((await api('GET', apiUrl(profileRoutes.get, { username: a.username }), c.token)).json() as Profile)
        .last_seen,
    ).not.toBeNull();
    const bs = await openSocket(url, b.token, open);
    const cs = await openSocket(url, c.token, open);
    const cHears = nextEvent<OnlineEvent>(cs, 'online', (e) => e.sender_id === a.id);
    const bHeard: OnlineEvent[] = [];
    bs.on('online', (e) => bHeard.push(e));
    await openSocket(url, a.token, open);
    await cHears;
    expect(await new Promise<number[]>((r) => cs.emit('presence:query', [a.id], r))).toEqual([a.id]);
    expect(await new Promise<number[]>((r) => bs.emit('presence:query', [a.id], r))).toEqual([]);
    expect(bHeard.filter((e) => e.sender_id === a.id)).toEqual([]);
  });
});

describe('blocks', () => {
  it('a blocked user cannot message, call or see the stories; unblocking restores it', async () => {
    const a = await user();
    const b = await user();
    await follow(b, a);
    await follow(a, b);
    const body = multipart([
      { field: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data: await brightImage() },
      { field: 'media_type', data: 'photo' },
    ]);
    const up = await t.app.inject({
      method: 'POST',
      url: apiUrl(storiesRoutes.upload),
      headers: { ...body.headers, ...bearer(a.token) },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    const story = (up.json() as { story: Story }).story;
    await t.app.ctx.media.jobs.idle();
    const feedOwners = async () =>
      (
        (await api('GET', apiUrl(storiesRoutes.feed), b.token)).json() as { stories_groups: StoryGroup[] }
      ).stories_groups.map((g) => g.user.id);
    expect(await feedOwners()).toContain(a.id);
    expect((await api('GET', apiUrl(storiesRoutes.get, { id: story.id }), b.token)).statusCode).toBe(200);

    const blocked = await api('POST', apiUrl(settingsRoutes.block, { username: b.username }), a.token);
    expect(blocked.json()).toEqual({ is_blocked: true });
    const list = (await api('GET', apiUrl(settingsRoutes.blocked), a.token)).json() as {
      users: { id: number }[];
    };
    expect(list.users.map((u) => u.id)).toEqual([b.id]);

    const msg = await send(b, a);
    expect(msg.statusCode).toBe(403);
    expect(msg.json()).toMatchObject({ code: ErrorCode.blocked, error: ErrorText.blockedMessage });
    const call = await startCall(b, a);
    expect(call.statusCode).toBe(403);
    expect(call.json()).toMatchObject({ code: ErrorCode.blocked, error: ErrorText.blockedCall });
    expect(await feedOwners()).not.toContain(a.id);
    expect((await api('GET', apiUrl(storiesRoutes.get, { id: story.id }), b.token)).statusCode).toBe(404);
    expect((await api('POST', apiUrl(storiesRoutes.view, { id: story.id }), b.token)).statusCode).toBe(404);
    expect((await api('POST', apiUrl(storiesRoutes.like, { id: story.id }), b.token)).statusCode).toBe(404);
    // The blocker is told why they cannot write either.
    const own = await send(a, b);
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ code: ErrorCode.blockedByMe });
    // Blocking hides presence from the blocked user.
    expect(
      ((await api('GET', apiUrl(profileRoutes.get, { username: a.username }), b.token)).json() as Profile)
        .last_seen,
    ).toBeNull();

    expect(
      (await api('DELETE', apiUrl(settingsRoutes.unblock, { username: b.username }), a.token)).json(),
    ).toEqual({
      is_blocked: false,
    });
    expect((await send(b, a)).statusCode).toBe(200);
    // The block ended the follows both ways; unblocking restores none: the stories come back with a new follow.
    expect(await feedOwners()).not.toContain(a.id);
    await follow(b, a);
    expect(await feedOwners()).toContain(a.id);
  }, 300_000);

  it('refuses blocking oneself (400) and an unknown user (404)', async () => {
    const a = await user();
    expect(
      (await api('POST', apiUrl(settingsRoutes.block, { username: a.username }), a.token)).statusCode,
    ).toBe(400);
    expect(
      (await api('POST', apiUrl(settingsRoutes.block, { username: 'nobody_here_at_all' }), a.token))
        .statusCode,
    ).toBe(404);
  });
});

describe('every node hears a change', () => {
  it('a cached "everyone" is replaced at once after the patch', async () => {
    const a = await user();
    const b = await user();
    expect((await send(b, a)).statusCode).toBe(200);
    await setPrivacy(a, { messages: 'following' });
    expect((await send(b, a)).statusCode).toBe(403);
    await setPrivacy(a, { messages: 'everyone' });
    expect((await send(b, a)).statusCode).toBe(200);
  });
});
